package io.github.sparkufs.testing;

import io.github.sparkufs.linalg.DenseMatrix;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The outputs of a reference implementation committed under {@code src/test/resources/reference}
 * (provenance in {@code reference/PROVENANCE.md}): one text file per dataset and method, each
 * line {@code key = numbers...} ({@code #} starts a comment). A matrix {@code m} comes with a
 * line {@code m.shape = rows cols} and its entries row by row.
 */
public final class ReferenceFixture {

  private final String name;
  private final Map<String, double[]> values;

  private ReferenceFixture(String name, Map<String, double[]> values) {
    this.name = name;
    this.values = values;
  }

  /** Reads {@code reference/DATASET/METHOD.txt} from the test class path. */
  public static ReferenceFixture load(String dataset, String method) {
    String resource = "/reference/" + dataset + "/" + method + ".txt";
    Map<String, double[]> values = new HashMap<>();
    try (InputStream in = ReferenceFixture.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing fixture " + resource);
      }
      BufferedReader reader =
          new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        int eq = line.indexOf(" = ");
        String[] parts = line.substring(eq + 3).trim().split("\\s+");
        values.put(line.substring(0, eq),
            Arrays.stream(parts).mapToDouble(Double::parseDouble).toArray());
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + resource, e);
    }
    return new ReferenceFixture(resource, values);
  }

  /** The committed dataset {@code reference/NAME.libsvm.gz} with d features. */
  public static BenchmarkData dataset(String name, int numFeatures) {
    URL url = ReferenceFixture.class.getResource("/reference/" + name + ".libsvm.gz");
    try {
      return BenchmarkData.read(Path.of(url.toURI()), numFeatures);
    } catch (IOException | URISyntaxException e) {
      throw new IllegalStateException("cannot read " + name, e);
    }
  }

  public double[] vector(String key) {
    double[] v = values.get(key);
    if (v == null) {
      throw new IllegalArgumentException(name + " has no " + key);
    }
    return v.clone();
  }

  public double scalar(String key) {
    return vector(key)[0];
  }

  /** Entries of {@code key} as an int array (the reference's 0-based feature indices). */
  public int[] indices(String key) {
    return Arrays.stream(vector(key)).mapToInt(v -> (int) v).toArray();
  }

  /**
   * The matrix {@code key} (rows × cols, stored row by row) as a {@link DenseMatrix} of
   * cols × rows: the column-major layout of the transpose is the row-major layout read.
   */
  public DenseMatrix transposed(String key) {
    double[] shape = vector(key + ".shape");
    return new DenseMatrix((int) shape[1], (int) shape[0], vector(key));
  }
}
