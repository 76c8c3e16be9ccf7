"""The reference side of dev/bench-templates.sh: scikit-learn's KMeans and statsmodels' ETS on the
files the Rust benchmark wrote, with the same settings (4 clusters, Lloyd, 10 iterations, one
k-means++ start; exponential smoothing chosen by AICc among the same non-seasonal models).
Prints one JSON line with the timings and the results. Timings cover the computation only."""

import json
import sys
import time
import warnings

import numpy as np
from sklearn.cluster import KMeans
from statsmodels.tsa.exponential_smoothing.ets import ETSModel

warnings.filterwarnings("ignore")
folder = sys.argv[1]

blobs = np.loadtxt(f"{folder}/blobs.csv", delimiter=",", skiprows=1)
started = time.perf_counter()
km = KMeans(n_clusters=4, init="k-means++", n_init=1, max_iter=10, tol=1e-9, algorithm="lloyd", random_state=42).fit(blobs)
kmeans_s = time.perf_counter() - started

y = np.loadtxt(f"{folder}/series.csv", delimiter=",", skiprows=1)[:, 1]
# AutoETS's candidates without seasonality: error A/M × trend none/additive/damped.
candidates = [(e, t, d) for e in ("add", "mul") for (t, d) in ((None, False), ("add", False), ("add", True))]
started = time.perf_counter()
best = None
for error, trend, damped in candidates:
    fit = ETSModel(y, error=error, trend=trend, damped_trend=damped).fit(disp=False)
    if best is None or fit.aicc < best[0].aicc:
        best = (fit, error, trend, damped)
forecast_s = time.perf_counter() - started
fit, error, trend, damped = best
model = f"ETS({error[0].upper()},{'N' if trend is None else 'A' + ('d' if damped else '')},N)"

print(json.dumps({
    "rows": len(blobs), "kmeans_s": kmeans_s, "inertia": float(km.inertia_),
    "sizes": sorted(int(n) for n in np.bincount(km.labels_, minlength=4)),
    "points": len(y), "forecast_s": forecast_s, "model": model, "forecast": [float(v) for v in fit.forecast(12)],
}))
