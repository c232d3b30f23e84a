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

    more_shapes(out, np.random.default_rng(77))


def more_shapes(out, rng):
    """Twelve more shapes (2 Dec 2026), from their own generator so that the sets of main()
    stay as they were; the informative features come first unless said otherwise."""
    # Noise features driven by 3 shared Gaussian factors (a batch or size effect).
    x, y = datasets.make_blobs(n_samples=400, centers=4, n_features=8, cluster_std=1.5,
                               random_state=11)
    factors = rng.normal(size=(400, 3)) @ (2.0 * rng.normal(size=(3, 42)))
    noise = factors + rng.normal(0, 0.5, size=(400, 42))
    write(out, "correlated_noise", np.column_stack([x, noise]), y, c=4, informative=range(8))
    # Two interleaved half-moons: clusters no centre describes.
    x, y = datasets.make_moons(n_samples=400, noise=0.08, random_state=12)
    x = x / x.std(axis=0)
    write(out, "moons", np.column_stack([x, rng.normal(size=(400, 18))]), y, c=2,
          informative=range(2))
    # Elongated clusters: the informative features mixed by a random linear map.
    x, y = datasets.make_blobs(n_samples=500, centers=5, n_features=6, random_state=13)
    x = x @ rng.normal(size=(6, 6))
    write(out, "anisotropic", np.column_stack([x, rng.normal(0, x.std(), size=(500, 30))]), y,
          c=5, informative=range(6))
    # Skewed (log-normal) noise features.
    x, y = datasets.make_blobs(n_samples=400, centers=3, n_features=5, cluster_std=1.5,
                               random_state=14)
    write(out, "lognormal_noise", np.column_stack([x, np.exp(rng.normal(size=(400, 35)))]), y,
          c=3, informative=range(5))
    # Each pair of informative features lifts one of 6 clusters only.
    y = rng.integers(0, 6, 600)
    x = rng.normal(size=(600, 12))
    for k in range(6):
        x[y == k, 2 * k:2 * k + 2] += 4.0
    write(out, "one_vs_rest", np.column_stack([x, rng.normal(0, x.std(), size=(600, 48))]), y,
          c=6, informative=range(12))
    # 0/1 features: informative ones with cluster-dependent rates, noise ones at one half.
    y = rng.integers(0, 4, 500)
    rates = rng.choice([0.1, 0.9], size=(4, 10))
    x = (rng.random((500, 10)) < rates[y]).astype(float)
    noise = (rng.random((500, 40)) < 0.5).astype(float)
    # (A feature whose rate is the same in every cluster carries none: not counted as planted.)
    write(out, "binary", np.column_stack([x, noise]), y, c=4,
          informative=np.flatnonzero(np.ptp(rates, axis=0) > 0))
    # Ten weakly separated clusters.
    x, y = datasets.make_blobs(n_samples=1000, centers=10, n_features=12, cluster_std=2.5,
                               center_box=(-6, 6), random_state=15)
    write(out, "ten_weak_clusters", np.column_stack([x, rng.normal(0, x.std(), size=(1000, 88))]),
          y, c=10, informative=range(12))
    # Clusters of very different spreads.
    x, y = datasets.make_blobs(n_samples=400, centers=4, n_features=6,
                               cluster_std=[0.3, 1.0, 2.0, 3.5], random_state=16)
    write(out, "unequal_spreads", np.column_stack([x, rng.normal(0, x.std(), size=(400, 34))]),
          y, c=4, informative=range(6))
    # The informative features at random positions among the noise.
    x, y = datasets.make_blobs(n_samples=300, centers=3, n_features=4, cluster_std=1.5,
                               random_state=17)
    order = rng.permutation(30)
    shuffled = np.column_stack([rng.normal(0, x.std(), size=(300, 26)), x])[:, order]
    write(out, "shuffled_columns", shuffled, y, c=3,
          informative=sorted(int(np.flatnonzero(order == 26 + j)[0]) for j in range(4)))
    # Many rows.
    x, y = datasets.make_blobs(n_samples=5000, centers=3, n_features=6, cluster_std=2.0,
                               random_state=18)
    write(out, "rows_5000", np.column_stack([x, rng.normal(0, x.std(), size=(5000, 54))]), y,
          c=3, informative=range(6))
    # Counts: Poisson features, informative ones with cluster-dependent rates.
    y = rng.integers(0, 3, 400)
    rates = rng.choice([1.0, 6.0], size=(3, 8))
    counts = np.column_stack([rng.poisson(rates[y]), rng.poisson(3.0, size=(400, 42))])
    write(out, "poisson_counts", counts, y, c=3,
          informative=np.flatnonzero(np.ptp(rates, axis=0) > 0))
    # Far more features than rows.
    x, y = datasets.make_blobs(n_samples=150, centers=3, n_features=10, cluster_std=2.0,
                               random_state=19)
    write(out, "wide_d1000", np.column_stack([x, rng.normal(0, x.std(), size=(150, 990))]), y,
          c=3, informative=range(10))

if __name__ == "__main__":
    main(Path(sys.argv[1]))
