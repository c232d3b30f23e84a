#!/usr/bin/env python3
"""Writes the data sets of dev/unseen-data-sweep (issue #20: data the project was never tuned
to) into DIR, one NAME.txt each: a header line "# c=<clusters> m=<kept> informative=<i,j,..>
sparse=<0|1>", then one row per sample, the label (-1 when none) and the features.
Usage: dev/unseen_data.py DIR   (needs numpy and scikit-learn; nothing is downloaded)."""
import sys
from pathlib import Path

import numpy as np
from sklearn import datasets


def write(out, name, x, y=None, c=2, m=None, informative=(), sparse=False):
    x = np.asarray(x, dtype=float)
    y = np.full(len(x), -1) if y is None else np.asarray(y)
    m = m if m is not None else max(1, len(informative) or min(5, x.shape[1]))
    header = "c=%d m=%d informative=%s sparse=%d" % (
        c, m, ",".join(str(i) for i in informative), int(sparse))
    np.savetxt(out / (name + ".txt"), np.column_stack([y, x]), fmt="%.17g", header=header)


def blobs_with_noise(rng, n, c, informative, noise, std=1.0, seed=0):
    x, y = datasets.make_blobs(n_samples=n, centers=c, n_features=informative,
                               cluster_std=std, random_state=seed)
    return np.column_stack([x, rng.normal(0, x.std(), size=(n, noise))]), y


def main(out):
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20)
    iris = datasets.load_iris()
    write(out, "iris", iris.data, iris.target, c=3, m=2)
    wine = datasets.load_wine()
    write(out, "wine", wine.data, wine.target, c=3, m=4)
    cancer = datasets.load_breast_cancer()
    write(out, "breast_cancer", cancer.data, cancer.target, c=2, m=5)

    x, y = blobs_with_noise(rng, 300, 2, 5, 45, std=2.0, seed=1)
    write(out, "blobs_c2", x, y, c=2, informative=range(5))
    x, y = datasets.make_classification(n_samples=600, n_features=40, n_informative=10,
                                        n_redundant=0, n_classes=15, n_clusters_per_class=1,
                                        class_sep=2.0, shuffle=False, random_state=2)
    write(out, "classif_c15", x, y, c=15, informative=range(10))
    x, y = blobs_with_noise(rng, 20, 3, 3, 5, seed=3)
    write(out, "blobs_n20_c3", x, y, c=3, informative=range(3))
    x, y = blobs_with_noise(rng, 5, 3, 2, 3, seed=4)
    write(out, "n5_c3", x, y, c=3, informative=range(2))

    write(out, "iris_dup3", np.repeat(iris.data, 3, axis=0), np.repeat(iris.target, 3), c=3, m=2)
    x, y = blobs_with_noise(rng, 200, 3, 4, 16, seed=5)
    x[:3] *= 1000.0
    write(out, "blobs_outliers", x, y, c=3, informative=range(4))
    x, y = blobs_with_noise(rng, 200, 3, 4, 16, seed=6)
    write(out, "blobs_integer", np.rint(x * 2), y, c=3, informative=range(4))
    x, y = blobs_with_noise(rng, 240, 3, 3, 3, seed=7)
    cats = np.where(rng.random(240) < 0.8, y, rng.integers(0, 3, 240))
    informative_onehot = np.eye(3)[cats]
    noise_onehot = np.eye(4)[rng.integers(0, 4, 240)]
    binary_noise = rng.integers(0, 2, size=(240, 2))
    write(out, "onehot", np.column_stack([informative_onehot, x, noise_onehot, binary_noise]), y,
          c=3, informative=(0, 1, 2, 3, 4, 5))

    topics, vocab, per_topic = 3, 500, 40
    y = rng.integers(0, topics, 300)
    weights = np.full((topics, vocab), 0.2)
    for t in range(topics):
        weights[t, t * per_topic:(t + 1) * per_topic] = 20.0
    weights /= weights.sum(axis=1, keepdims=True)
    counts = np.array([rng.multinomial(12, weights[t]) for t in y])
    write(out, "text_counts", counts, y, c=3, m=3 * per_topic,
          informative=range(topics * per_topic), sparse=True)

    x, y = blobs_with_noise(rng, 200, 3, 3, 5, seed=8)
    x[:, 0] *= 1e9
    x[:, 1:] *= 1e-3
    write(out, "scale_1e9_1e-3", x, y, c=3, informative=range(3))

    x, y = datasets.make_blobs(n_samples=100, centers=2, n_features=1, random_state=9)
    write(out, "d1", x, y, c=2, m=1, informative=(0,))
    x, y = blobs_with_noise(rng, 100, 2, 1, 1, seed=10)
    write(out, "d2", x, y, c=2, m=1, informative=(0,))
    write(out, "iris_m_over_d", iris.data, iris.target, c=3, m=6)
    x = np.column_stack([np.zeros(150), iris.data[:, :2], np.full(150, 5.0), iris.data[:, 2:]])
    write(out, "iris_constant_cols", x, iris.target, c=3, m=5)
    write(out, "all_constant", np.tile([1.0, 0.0, -3.0, 7.0], (50, 1)), None, c=2, m=2)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
