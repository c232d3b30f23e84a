package io.github.sparkufs.graph;

/** Connected components of n nodes under added edges: union by size with path halving. */
final class UnionFind {

  private final int[] parent;
  private final int[] size;
  private int count;

  UnionFind(int n) {
    parent = new int[n];
    size = new int[n];
    for (int i = 0; i < n; i++) {
      parent[i] = i;
      size[i] = 1;
    }
    count = n;
  }

  /** The representative of i's component. */
  int find(int i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  }

  /** Joins the components of i and j. */
  void union(int i, int j) {
    int a = find(i);
    int b = find(j);
    if (a == b) {
      return;
    }
    if (size[a] < size[b]) {
      int t = a;
      a = b;
      b = t;
    }
    parent[b] = a;
    size[a] += size[b];
    count--;
  }

  /** The number of components. */
  int count() {
    return count;
  }
}
