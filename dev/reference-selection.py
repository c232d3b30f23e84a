"""Is a selection below random columns the method's doing or ours? (docs/selection-check.md)

  reference-selection.py METHOD DATA d c m1,m2,... [SCORES_CSV ...]

For each m of the grid: the median ACC of m random columns (10 draws), the ACC of
scikit-feature's top m for METHOD (spec, or a method dev/reference-recall.py ranks: lapscore,
udfs, mcfs, ndfs) and of each SCORES_CSV's top m with its overlap with the reference's top m
(`bin/spark-ufs select --top d --output OUT` writes OUT/scores.csv; the column takes OUT's
name). ACC is the mean over 20 runs of scikit-learn's k-means (one start each, seeds 0..19)
of the best one-to-one match of clusters to labels, so it differs a little from `bin/spark-ufs
bench`'s own k-means. Run it with the Python of dev/reference-bench's venv (skfeature-chappers
from dev/requirements-bench.txt):

  target/reference-bench-venv/bin/python dev/reference-selection.py lapscore \\
      DATA/USPS.libsvm.gz 256 10 10,50 OUT/scores.csv

The references get the graph of docs/reference-agreement.md: the 5-NN heat-kernel graph with
the project's global sigma (`construct_W`, which joins each sample to itself). The Laplacian
Score keeps those self-loops (ours matches it with `localScaling=false selfConnected=true`);
SPEC gets the graph without them, as ours, and is ranked by its raw phi_1 scores, smaller
first (`mode='index'` sorts phi_1 the wrong way round: docs/reference-agreement.md, departure
2); the other methods run as in dev/reference-recall.py (UDFS with gamma = 1e-3 and its own
local sets).
"""
import csv
import importlib
import os
import sys

import numpy as np

bench = importlib.import_module("reference-bench")  # dev/ is this script's folder
recall = importlib.import_module("reference-recall")

KMEANS_RUNS = 20
RANDOM_DRAWS = 10


def reference_ranking(method, x, c):
    """scikit-feature's feature indices for METHOD, best first (0-based)."""
    if method != "spec":
        return np.asarray(recall.ranking(method, x, c)).ravel()
    from skfeature.function.similarity_based.SPEC import spec
    w = bench.heat_kernel_graph(x).tolil()
    w.setdiag(0)
    w = w.tocsr()
    w.eliminate_zeros()
    return np.argsort(np.asarray(spec(x, W=w, style=-1, mode="raw")), kind="stable")


def our_ranking(path):
    """The feature indices of a scores.csv, by its rank column (1 = best)."""
    with open(path) as f:
        rank = {int(row["feature"]): int(row["rank"]) for row in csv.DictReader(f)}
    return np.array(sorted(rank, key=rank.get))


def accuracy(labels, clusters):
    """The share of samples in the best one-to-one match of clusters to labels."""
    from scipy.optimize import linear_sum_assignment
    _, y = np.unique(labels, return_inverse=True)
    _, p = np.unique(clusters, return_inverse=True)
    counts = np.zeros((p.max() + 1, y.max() + 1))
    np.add.at(counts, (p, y), 1)
    rows, cols = linear_sum_assignment(-counts)
    return counts[rows, cols].sum() / len(labels)


def mean_accuracy(x, y, c):
    from sklearn.cluster import KMeans
    return np.mean([accuracy(y, KMeans(c, n_init=1, random_state=r).fit_predict(x))
                    for r in range(KMEANS_RUNS)])


def main(method, path, d, c, grid, score_files):
    x, y = bench.load(path, d)
    rankings = {"reference": reference_ranking(method, x, c)}
    # each selection is named by its output folder (OUT of OUT/scores.csv)
    rankings.update({os.path.basename(os.path.dirname(os.path.abspath(f))): our_ranking(f)
                     for f in score_files})
    rng = np.random.default_rng(1)
    print("m,random_median," + ",".join(
        f"{name},{name}_overlap" for name in rankings if name != "reference") + ",reference")
    for m in grid:
        random = np.median([mean_accuracy(x[:, rng.choice(d, m, replace=False)], y, c)
                            for _ in range(RANDOM_DRAWS)])
        reference = set(rankings["reference"][:m].tolist())
        cells = [f"{m}", f"{random:.3f}"]
        for name, ranking in rankings.items():
            if name != "reference":
                top = ranking[:m]
                overlap = len(reference.intersection(top.tolist())) / m
                cells += [f"{mean_accuracy(x[:, top], y, c):.3f}", f"{overlap:.2f}"]
        cells.append(f"{mean_accuracy(x[:, rankings['reference'][:m]], y, c):.3f}")
        print(",".join(cells), flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 6:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]),
         [int(m) for m in sys.argv[5].split(",")], sys.argv[6:])
