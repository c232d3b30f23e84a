#!/usr/bin/env python3
"""Markdown tables from `bin/spark-ufs bench --json` files: ACC per method and m beside the
median ACC of as many random columns; a cell below that median is marked with *.
Usage: dev/selection_table.py FILE.json [...]"""
import json
import sys

for path in sys.argv[1:]:
    with open(path) as f:
        runs = json.load(f)
    runs = runs if isinstance(runs, list) else [runs]
    first = runs[0]
    random = {r["numFeatures"]: r["acc"]["median"]
              for r in first["baselines"].get("random", {}).get("results", [])}
    ms = [r["numFeatures"] for r in first["results"]]
    print(f"\n**{first['dataset']}** (n = {first['n']}, d = {first['d']}, c = {first['clusters']};"
          f" all features {first['baselines']['allFeatures']['acc']['mean']:.3f})\n")
    print("| method | " + " | ".join(f"m = {m}" for m in ms) + " |")
    print("|---|" + "---|" * len(ms))
    if random:
        print("| random (median) | " + " | ".join(f"{random[m]:.3f}" for m in ms) + " |")
    for run in runs:
        acc = {r["numFeatures"]: r["acc"]["mean"] for r in run["results"]}
        cells = [f"{acc[m]:.3f}" + ("*" if random and acc[m] < random[m] else "") for m in ms]
        print(f"| {run['method']} | " + " | ".join(cells) + " |")
