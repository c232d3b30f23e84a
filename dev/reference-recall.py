"""scikit-feature's side of the ground-truth recall table (docs/recall.md, "Public implementations").

  reference-recall.py DIR    one CSV line per draw and method: implementation,method,family,seed,found,planted

DIR is what `bin/spark-ufs recall --write-data DIR` writes: DIR/<family>-<seed>.libsvm.gz (labels
1..c) and DIR/<family>-<seed>.planted.txt (the planted features, 1-based). Each method keeps as
many features as were planted; `found` counts the planted ones among them. Run it with the
Python of dev/reference-bench's venv (skfeature-chappers from dev/requirements-bench.txt):

  target/reference-bench-venv/bin/python dev/reference-recall.py DIR > FILE

Each method runs on the graph and params dev/reference-bench gives it (the 5-NN heat-kernel
graph with the project's global sigma; SPEC's phi_1; MCFS with 50 non-zeros; UDFS with
gamma = 1e-3), everything else at scikit-feature's defaults. NDFS starts from scikit-learn's
k-means, which draws from numpy's global generator: it is seeded with the draw's seed.
"""
import importlib
import pathlib
import sys

import numpy as np

bench = importlib.import_module("reference-bench")  # dev/ is this script's folder


def ranking(method, x, c):
    """scikit-feature's feature indices for METHOD, best first (0-based)."""
    if method == "udfs":
        from skfeature.function.sparse_learning_based.UDFS import udfs
        return udfs(x, gamma=1e-3, k=bench.K, n_clusters=c, mode="index")
    w = bench.heat_kernel_graph(x)
    if method == "lapscore":
        from skfeature.function.similarity_based.lap_score import lap_score
        return lap_score(x, W=w, mode="index")
    if method == "spec":
        from skfeature.function.similarity_based.SPEC import spec
        return spec(x, W=w, style=-1, mode="index")
    if method == "mcfs":
        from skfeature.function.sparse_learning_based.MCFS import mcfs
        return mcfs(x, n_selected_features=50, W=w, n_clusters=c, mode="index")
    if method == "ndfs":
        from skfeature.function.sparse_learning_based.NDFS import ndfs
        return ndfs(x, W=w, n_clusters=c, mode="index")
    raise SystemExit(f"no reference for method {method}")


def main(folder):
    print("implementation,method,family,seed,found,planted")
    for data in sorted(pathlib.Path(folder).glob("*.libsvm.gz")):
        name = data.name[: -len(".libsvm.gz")]
        family, seed = name.rsplit("-", 1)
        planted = {int(f) - 1 for f in (data.parent / f"{name}.planted.txt").read_text().split()}
        x, y = bench.load(str(data), None)
        c = len(np.unique(y))
        for method in ("lapscore", "spec", "mcfs", "ndfs", "udfs"):
            np.random.seed(int(seed))
            kept = np.asarray(ranking(method, x, c)).ravel()[: len(planted)]
            found = len(planted.intersection(kept.tolist()))
            print(f"scikit-feature,{method},{family},{seed},{found},{len(planted)}", flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
