package io.github.sparkufs.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The library's public API, listed by reflection: every public class of the API packages and
 * its public and protected constructors, methods and fields, one line each, sorted. The list is
 * committed as {@code src/test/resources/public-api.txt}, so a change to the API shows in review
 * as a change to that file. After a deliberate change, regenerate it with
 *
 * <pre>mvn -B -q test -pl spark-ufs -Dtest=PublicApiTest -Dsparkufs.updatePublicApi=true</pre>
 */
class PublicApiTest {

  /** The packages users program against; the others are the implementation. */
  private static final List<String> API_PACKAGES = List.of("io.github.sparkufs.ml");

  private static final Path COMMITTED = Path.of("src/test/resources/public-api.txt");
  private static final String UPDATE = "sparkufs.updatePublicApi";

  @Test
  void thePublicApiIsTheCommittedOne() throws Exception {
    List<String> api = new ArrayList<>();
    for (String pkg : API_PACKAGES) {
      for (Class<?> c : classesOf(pkg)) {
        if (isApi(c)) {
          api.add(describe(c));
        }
      }
    }
    assertFalse(api.isEmpty(), "no public class found in " + API_PACKAGES);
    String listed = String.join("\n", api);
    if (Boolean.getBoolean(UPDATE)) {
      Files.writeString(COMMITTED, listed, StandardCharsets.UTF_8);
    }
    String committed = Files.exists(COMMITTED)
        ? Files.readString(COMMITTED, StandardCharsets.UTF_8) : "";
    assertEquals(committed, listed, "The public API differs from " + COMMITTED.toAbsolutePath()
        + ". If the change is deliberate, regenerate the file: mvn -B -q test -pl spark-ufs"
        + " -Dtest=PublicApiTest -D" + UPDATE + "=true");
  }

  /** The classes compiled into a package folder of the main classes. */
  private static List<Class<?>> classesOf(String pkg)
      throws IOException, URISyntaxException, ClassNotFoundException {
    Path dir = Path.of(Selectors.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .resolve(pkg.replace('.', '/'));
    List<Class<?>> classes = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.sorted().toList()) {  // Outer.class before Outer$Inner.class
        String name = file.getFileName().toString();
        if (name.endsWith(".class")) {
          classes.add(Class.forName(pkg + "." + name.substring(0, name.length() - 6), false,
              PublicApiTest.class.getClassLoader()));
        }
      }
    }
    return classes;
  }

  /** Public, or protected within a class that is itself API. */
  private static boolean isApi(Class<?> c) {
    if (c.isSynthetic() || c.isAnonymousClass() || c.isLocalClass()) {
      return false;
    }
    Class<?> outer = c.getDeclaringClass();
    return outer == null ? Modifier.isPublic(c.getModifiers())
        : isVisible(c.getModifiers()) && isApi(outer);
  }

  private static boolean isVisible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  /**
   * The class's declaration, then its visible members sorted, one line each and indented; types
   * of the class's own package are written without it.
   */
  private static String describe(Class<?> c) {
    String pkg = c.getPackageName() + ".";
    List<String> lines = new ArrayList<>();
    List<Member> members = new ArrayList<>();
    members.addAll(List.of(c.getDeclaredConstructors()));
    members.addAll(List.of(c.getDeclaredMethods()));
    members.addAll(List.of(c.getDeclaredFields()));
    for (Member m : members) {
      if (!m.isSynthetic() && isVisible(m.getModifiers())) {
        String text = m instanceof Field f ? f.toGenericString()
            : ((Executable) m).toGenericString();
        text = text.replace(c.getTypeName() + "." + m.getName() + "(", m.getName() + "(")
            .replace(c.getTypeName() + "." + m.getName(), m.getName());
        lines.add("  " + text.replace(pkg, ""));
      }
    }
    lines.sort(null);
    lines.add(0, (c.toGenericString() + extendsClause(c)).replace(pkg, ""));
    return String.join("\n", lines) + "\n";
  }

  private static String extendsClause(Class<?> c) {
    StringBuilder s = new StringBuilder();
    if (c.getGenericSuperclass() != null && c.getSuperclass() != Object.class
        && !c.isEnum()) {
      s.append(" extends ").append(c.getGenericSuperclass().getTypeName());
    }
    if (c.getGenericInterfaces().length > 0) {
      s.append(c.isInterface() ? " extends " : " implements ");
      s.append(String.join(", ", Stream.of(c.getGenericInterfaces())
          .map(java.lang.reflect.Type::getTypeName).toList()));
    }
    return s.toString();
  }
}
