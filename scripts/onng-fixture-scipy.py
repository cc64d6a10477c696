"""SciPy's statistics of the O-NNG fixture outcomes (tests/reference/onng/derived/per_problem_outcomes.csv).

Writes tests/reference/onng/derived/summary_by_model_lambda.json in the shape of the O-NNG summary the
reference suite reads (per model and level: verified runs, accuracy mean +- SE in percent, time mean +- SE;
`_tests`: scipy.stats.f_oneway over the runs of each level, scipy.stats.linregress of run accuracy on lambda),
so that `npm test` checks the TypeScript statistics against scipy on the fixtures, not against themselves.
A run is verified when any of its rows has a verdict; its accuracy is the correct share of its verified rows,
its time the mean time_s of all its rows (tests/reference/onng/README.md).

Usage: python3 scripts/onng-fixture-scipy.py [OUTCOMES_CSV [OUT_JSON]]   (SciPy 1.17.1 wrote the stored file)
"""
import csv
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

from scipy import stats

ROOT = Path(__file__).resolve().parent.parent
source = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests/reference/onng/derived/per_problem_outcomes.csv"
target = Path(sys.argv[2]) if len(sys.argv) > 2 else source.with_name("summary_by_model_lambda.json")

runs = defaultdict(list)  # (model, dataset, lam, run) -> rows
with open(source, newline="", encoding="utf-8") as f:
    for row in csv.DictReader(f):
        runs[(row["model"], row["dataset"], float(row["lam"]), int(row["run"]))].append(row)


def se(values):
    return stats.sem(values) if len(values) > 1 else math.nan


summary = {}
for model in dict.fromkeys(k[0] for k in runs):
    levels = defaultdict(lambda: {"acc": [], "time": [], "correct": []})
    for (m, dataset, lam, _run), rows in sorted(runs.items(), key=lambda kv: (kv[0][2], kv[0][3])):
        if m != model:
            continue
        verified = [r for r in rows if r["verified"] != ""]
        if not verified:
            continue
        correct = sum(r["correct"] == "1" for r in verified)
        level = levels[(dataset, lam)]
        level["acc"].append(correct / len(verified))
        level["time"].append(sum(float(r["time_s"]) for r in rows) / len(rows))
        level["correct"].append(correct)
    out = {}
    for (dataset, lam), v in sorted(levels.items(), key=lambda kv: kv[0][1]):
        out[dataset] = {
            "lam": lam,
            "n_runs_verified": len(v["acc"]),
            "acc_mean": 100 * sum(v["acc"]) / len(v["acc"]),
            "acc_se": 100 * se(v["acc"]),
            "time_mean_verified_runs": sum(v["time"]) / len(v["time"]),
            "time_se": se(v["time"]),
            "correct_per_run": v["correct"],
        }
    groups = [levels[k] for k in sorted(levels, key=lambda k: k[1])]
    acc = stats.f_oneway(*[g["acc"] for g in groups])
    time = stats.f_oneway(*[g["time"] for g in groups])
    xs = [lam for (_d, lam) in sorted(levels, key=lambda k: k[1]) for _ in levels[(_d, lam)]["acc"]]
    trend = stats.linregress(xs, [a for g in groups for a in g["acc"]])
    out["_tests"] = {
        "anova_acc_scipy": {"F": float(acc.statistic), "p": float(acc.pvalue)},
        "anova_time_scipy": {"F": float(time.statistic), "p": float(time.pvalue)},
        "linreg_acc_vs_lambda": {"slope_pp_per_unit_lambda": 100 * float(trend.slope), "p": float(trend.pvalue)},
    }
    summary[model] = out

target.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
print(f"wrote {target} ({len(summary)} models)")
