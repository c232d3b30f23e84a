#!/usr/bin/env python3
"""Where a fit's time went, from Spark's event log: per job description (the phases spark-ufs
names, e.g. "ndfs: NDFS: iteration 3"), the jobs, tasks, executor CPU seconds, task run
seconds, GC seconds, wall seconds and shuffle MB read, then the driver's time between jobs.
Turn the log on with `spark.eventLog.enabled true` and `spark.eventLog.dir file:///DIR` in a
copy of conf/spark-defaults.conf passed as SPARK_CONF_DIR (docs/benchmarks.md, "Scaling").
Usage: dev/event_log_steps.py DIR/eventlog_v2_*/events_1_* (zstd-compressed logs need `zstd`)"""
import collections
import json
import subprocess
import sys


def events(path):
    if path.endswith(".zstd"):
        text = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
        lines = text.decode().splitlines()
    else:
        with open(path) as f:
            lines = f.read().splitlines()
    for line in lines:
        try:
            yield json.loads(line)
        except json.JSONDecodeError:  # the last line of a log still being written
            return


jobs = {}  # job id -> [description, submitted ms, completed ms]
description_of_stage = {}
steps = collections.OrderedDict()
application = [None, None]
for e in events(sys.argv[1]):
    kind = e["Event"]
    if kind == "SparkListenerApplicationStart":
        application[0] = e["Timestamp"]
    elif kind == "SparkListenerApplicationEnd":
        application[1] = e["Timestamp"]
    elif kind == "SparkListenerJobStart":
        description = (e.get("Properties") or {}).get("spark.job.description", "(none)")
        jobs[e["Job ID"]] = [description, e["Submission Time"], None]
        for stage in e["Stage IDs"]:
            description_of_stage[stage] = description
    elif kind == "SparkListenerJobEnd":
        jobs[e["Job ID"]][2] = e["Completion Time"]
    elif kind == "SparkListenerTaskEnd":
        metrics = e.get("Task Metrics") or {}
        shuffle = metrics.get("Shuffle Read Metrics") or {}
        step = steps.setdefault(description_of_stage.get(e["Stage ID"], "(none)"),
                                collections.Counter())
        step["tasks"] += 1
        step["cpu"] += metrics.get("Executor CPU Time", 0) / 1e9
        step["run"] += metrics.get("Executor Run Time", 0) / 1e3
        step["gc"] += metrics.get("JVM GC Time", 0) / 1e3
        step["shuffle"] += (shuffle.get("Remote Bytes Read", 0)
                            + shuffle.get("Local Bytes Read", 0)) / 1e6

count = collections.Counter(description for description, _, _ in jobs.values())
wall = collections.Counter()
for description, submitted, completed in jobs.values():
    if completed:
        wall[description] += (completed - submitted) / 1e3
print(f"{'job description':70s} {'jobs':>5s} {'tasks':>6s} {'cpu s':>8s} {'run s':>8s} "
      f"{'gc s':>7s} {'wall s':>8s} {'shuffle MB':>10s}")
total = collections.Counter()
for description, step in steps.items():
    print(f"{description[:70]:70s} {count[description]:5d} {step['tasks']:6d} {step['cpu']:8.1f} "
          f"{step['run']:8.1f} {step['gc']:7.1f} {wall[description]:8.1f} {step['shuffle']:10.0f}")
    total.update(step)
print(f"{'all':70s} {len(jobs):5d} {total['tasks']:6d} {total['cpu']:8.1f} {total['run']:8.1f} "
      f"{total['gc']:7.1f} {sum(wall.values()):8.1f} {total['shuffle']:10.0f}")
spans = sorted((submitted, completed) for _, submitted, completed in jobs.values() if completed)
between, last = 0.0, None
for submitted, completed in spans:
    if last is not None and submitted > last:
        between += (submitted - last) / 1e3
    last = completed if last is None else max(last, completed)
if spans and application[0]:
    end = application[1] or last
    print(f"driver between jobs: {between:.1f} s; application {(end - application[0]) / 1e3:.1f} s")
