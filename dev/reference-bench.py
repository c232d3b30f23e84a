"""The public references' side of dev/reference-bench, and its report.

  reference-bench.py fit METHOD DATA d c    one timed fit of scikit-feature's METHOD, as a CSV line
  reference-bench.py report RAW c CSV PNG CMD OCTAVE_CSV DATA
                                         medians, flop floors (c clusters), the chart, with
                                         the rows of OCTAVE_CSV (the authors' MATLAB code under
                                         Octave, timed by hand) whose data is DATA's file name

`fit` runs in a process of its own per fit, so that ru_maxrss is that fit's peak (the
interpreter and the data included: `load` gives the same process without a fit). Each
reference gets the graph its method uses in this project at its defaults, built by
scikit-feature's construct_W: the 5-NN heat-kernel graph, t = sigma / sqrt(2) so that
exp(-d^2 / 2t^2) = exp(-d^2 / sigma^2) with sigma the mean 5th-neighbour distance (the
project's global sigma). The graph is part of every timed fit.
"""
import csv
import os
import platform
import resource
import subprocess
import sys
import time

import numpy as np

K = 5

def load(path, d):
    from sklearn.datasets import load_svmlight_file
    x, y = load_svmlight_file(path, n_features=d)
    return np.asarray(x.todense()), y


def heat_kernel_graph(x):
    from sklearn.neighbors import NearestNeighbors
    from skfeature.utility.construct_W import construct_W
    kth = NearestNeighbors(n_neighbors=K + 1).fit(x).kneighbors(x)[0][:, K]
    t = kth.mean() / np.sqrt(2)
    return construct_W(x, metric="euclidean", neighbor_mode="knn", weight_mode="heat_kernel",
                       k=K, t=t)


SKFEATURE_METHODS = ("lapscore", "spec", "mcfs", "ndfs", "udfs")


def fit(method, x, c):
    """Fits scikit-feature's METHOD; returns the seconds its graph took."""
    start = time.perf_counter()
    w = heat_kernel_graph(x)
    graph = time.perf_counter() - start
    if method == "lapscore":
        from skfeature.function.similarity_based.lap_score import lap_score
        lap_score(x, W=w)
    elif method == "spec":
        from skfeature.function.similarity_based.SPEC import spec
        spec(x, W=w, style=-1)  # phi_1, this project's scoreType = 1
    elif method == "mcfs":
        from skfeature.function.sparse_learning_based.MCFS import mcfs
        mcfs(x, n_selected_features=50, W=w, n_clusters=c)  # numNonZeros = 50
    elif method == "ndfs":
        from skfeature.function.sparse_learning_based.NDFS import ndfs
        ndfs(x, W=w, n_clusters=c)
    elif method == "udfs":
        from skfeature.function.sparse_learning_based.UDFS import udfs
        udfs(x, gamma=1e-3, k=K, n_clusters=c)  # builds its own local sets
    return graph


def main_fit(method, path, d, c, repeat):
    if method not in SKFEATURE_METHODS + ("load",):
        return  # no scikit-feature function (rsfs, fsasl): ours and the Octave timings only
    x, _ = load(path, int(d))
    seconds, cpu, graph = 0.0, 0.0, 0.0
    if method != "load":
        cpu_start, start = cpu_seconds(), time.perf_counter()
        graph = fit(method, x, int(c))
        seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu_start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3  # kB on Linux
    print(f"skfeature,{method},{repeat},{seconds:.4f},{cpu:.4f},,{graph:.4f},,{rss:.1f},,")


def cpu_seconds():
    """User and system seconds of this process, every thread (OpenBLAS's too)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def floor_flops(method, n, d, c, iterations, ridge_solves=float("nan"),
                support_union=float("nan")):
    """The arithmetic of a fit that no implementation avoids, in flops (2 per multiply-add).

    Every method: the graph, the n x n inner products of the exact kNN search, n^2 d (symmetric:
    half of 2 n^2 d). Then per method, at the counts the fit ran (`iterations`, the summary's;
    `ridge_solves`, the d x d (or n x n) solves of the ridge step W = (X X^T + b D)^-1 X B that
    it made; `support_union`, the features in any of MCFS's regressions):
      mcfs  X Y for the c eigenvectors, 2ndc, and the Gram columns LARS reads: every feature
            that enters a support needs its column X^T x_j over the samples, 2nd each, or all
            of them at once as the symmetric Gram, n d^2: min(n d^2, 2 n d support_union);
      ndfs  the Gram n d^2 once; per iteration its Cholesky solve, d^3 / 3, and its n x d x c
            products, 4ndc;
      udfs  the Gram once; per iteration the reduction of its d x d matrix to tridiagonal
            form, 4 d^3 / 3 (the least a dense symmetric eigensolver does);
      rsfs  per iteration of every start (ridge_solves: initMode=both runs two fits) X^T W and
            X (F - Z), 4ndc, and the exact W step of Eq. 11 with a new diagonal D: a Cholesky
            factorisation and two triangular solves for c right-hand sides on the cheaper side,
            d^3/3 + 2d^2c after the Gram n d^2 once, or by Woodbury n^2 d (the n x n kernel
            X^T D^-1 X) + n^3/3 + 2n^2c per solve;
      fsasl per outer iteration X Y and X' = W^T X, 4ndc; per reweighting solve of Eq. 14
            (innerIterations per outer iteration) the same factorisation as RSFS's.
    Left out, though every implementation does some of it: the sparse eigensolvers' products
    over the graph (MCFS's embedding, RSFS's spectral start, FSASL's Y), LARS's steps
    (d |A| per step), the k-means starts, FSASL's LASSO and neighbour searches in the
    c-dimensional projection, and the scores.
    """
    graph = n * n * d
    gram = n * d * d

    def ridge(solves):
        return min(gram + solves * (d ** 3 / 3 + 2 * d * d * c),
                   solves * (n * n * d + n ** 3 / 3 + 2 * n * n * c))

    if method == "mcfs":
        return graph + 2 * n * d * c + min(gram, 2 * n * d * support_union)
    if method == "ndfs":
        return graph + gram + iterations * (d ** 3 / 3 + 4 * n * d * c)
    if method == "udfs":
        return graph + gram + iterations * 4 * d ** 3 / 3
    if method == "rsfs":
        return graph + ridge_solves * 4 * n * d * c + ridge(ridge_solves)
    if method == "fsasl":
        return graph + iterations * 4 * n * d * c + ridge(ridge_solves)
    return graph


def read_rows(path):
    with open(path) as f:
        return list(csv.DictReader(l for l in f if not l.startswith("#")))


def main_report(raw, c, out_csv, out_png, command, octave_csv, data):
    rows = read_rows(raw)
    if os.path.exists(octave_csv):
        rows += [r for r in read_rows(octave_csv) if r["data"] == os.path.basename(data)]
    gemm = dict(kv.split("=") for l in open(raw) if l.startswith("# gemm,")
                for kv in l.strip().split(",")[1:])
    methods = sorted({r["method"] for r in rows if r["impl"] == "ours"},
                     key=[r["method"] for r in rows].index)

    def median(impl, method, field):
        v = [float(r[field]) for r in rows
             if r["impl"] == impl and r["method"] == method and r[field] not in ("", "nan")]
        return float(np.median(v)) if v else float("nan")

    def spread(impl, method):
        v = [float(r["fit_seconds"]) for r in rows if r["impl"] == impl and r["method"] == method]
        return (min(v), max(v), len(v)) if v else (float("nan"),) * 2 + (0,)

    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), platform.processor())
    machine = (f"{platform.node()}; {cpu}; "
               f"{subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()} cores; "
               f"{platform.python_implementation()} {platform.python_version()}; "
               f"numpy {np.__version__}")
    table = []
    for m in methods:
        ours, ref, octave = spread("ours", m), spread("skfeature", m), spread("octave", m)
        table.append({
            "method": m,
            "ours_fit_s": median("ours", m, "fit_seconds"),
            "ours_cpu_s": median("ours", m, "cpu_seconds"),
            "ours_min_s": ours[0], "ours_max_s": ours[1], "ours_fits": ours[2],
            "ref_fit_s": median("skfeature", m, "fit_seconds"),
            "ref_cpu_s": median("skfeature", m, "cpu_seconds"),
            "ref_min_s": ref[0], "ref_max_s": ref[1], "ref_fits": ref[2],
            "octave_fit_s": median("octave", m, "fit_seconds"),
            "octave_min_s": octave[0], "octave_max_s": octave[1], "octave_fits": octave[2],
            "ours_iterations": median("ours", m, "iterations"),
            "ours_ridge_solves": median("ours", m, "ridge_solves"),
            "ours_support_union": median("ours", m, "support_union"),
            "octave_iterations": median("octave", m, "iterations"),
            "ours_graph_s": median("ours", m, "graph_seconds"),
            "ref_graph_s": median("skfeature", m, "graph_seconds"),
            "ours_heap_peak_mb": median("ours", m, "heap_peak_mb"),
            "ours_rss_peak_mb": median("ours", m, "rss_peak_mb"),
            "ref_rss_peak_mb": median("skfeature", m, "rss_peak_mb"),
            "ref_rss_without_fit_mb": median("skfeature", "load", "rss_peak_mb"),
            "octave_rss_peak_mb": median("octave", m, "rss_peak_mb"),
            "octave_rss_without_fit_mb": median("octave", "load", "rss_peak_mb"),
        })
        if gemm:
            floor = floor_flops(m, int(gemm["n"]), int(gemm["d"]), int(c),
                                table[-1]["ours_iterations"],
                                median("ours", m, "ridge_solves"),
                                median("ours", m, "support_union")) / (
                float(gemm["gflops"]) * 1e9)
            table[-1]["floor_s"] = floor
            for impl in ("ours", "ref", "octave"):
                table[-1][f"{impl}_over_floor"] = table[-1][f"{impl}_fit_s"] / floor
    with open(out_csv, "w", newline="") as f:
        f.write(f"# command: {command}\n# machine: {machine}\n")
        f.writelines(l for l in open(raw) if l.startswith("#"))
        w = csv.DictWriter(f, fieldnames=list(table[0]), lineterminator="\n")
        w.writeheader()
        for t in table:
            w.writerow({k: (f"{v:.4g}" if isinstance(v, float) else v) for k, v in t.items()})
    chart(table, out_png)
    for t in table:
        print(f"{t['method']:9s} fit s: ours {t['ours_fit_s']:7.3f}, scikit-feature "
              f"{t['ref_fit_s']:7.3f} ({t['ref_fit_s'] / t['ours_fit_s']:5.1f}x), Octave "
              f"{t['octave_fit_s']:7.3f} ({t['octave_fit_s'] / t['ours_fit_s']:5.1f}x); "
              f"CPU s: ours {t['ours_cpu_s']:6.2f}, scikit-feature {t['ref_cpu_s']:6.2f}; floor "
              f"{t.get('floor_s', float('nan')):6.3f} s, ours / floor "
              f"{t.get('ours_over_floor', float('nan')):5.1f}")


def chart(table, out_png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [t["method"] for t in table]
    at = np.arange(len(names))
    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(10, 3.8))
    impls = (("ours", "spark-ufs"), ("ref", "scikit-feature"),
             ("octave", "authors' MATLAB (Octave)"))
    for ax, (field, label, log) in zip((ax_t, ax_m), (
            ("fit_s", "fit seconds (median)", True),
            ("rss_peak_mb", "peak resident MB", False))):
        for i, (impl, name) in enumerate(impls):
            ax.bar(at + (i - 1) * 0.27, [t[f"{impl}_{field}"] for t in table], 0.27, label=name)
        ax.set_xticks(at, names)
        ax.set_ylabel(label)
        if log:
            ax.set_yscale("log")
    fig.legend(*ax_t.get_legend_handles_labels(), loc="lower center", ncol=len(impls), fontsize=9)
    ax_m.set_title("JVM (Spark local), Python and Octave processes", fontsize=9)
    ax_t.set_title("same data and graph (docs/benchmarks.md)", fontsize=9)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.savefig(out_png, dpi=110)


if __name__ == "__main__":
    if sys.argv[1] == "fit":
        main_fit(*sys.argv[2:7])
    elif sys.argv[1] == "report":
        main_report(*sys.argv[2:9])
    else:
        raise SystemExit(__doc__)
