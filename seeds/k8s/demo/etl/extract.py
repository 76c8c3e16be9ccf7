"""The nightly extract: weekly revenue and units per store from the sample retail sales, written
to out/sales.csv, which the workflow's next task publishes to the `sales` dataset."""

import json
from pathlib import Path

import pandas as pd

root = Path(__file__).resolve().parent.parent
sales = pd.read_csv(root / "data" / "sales.csv", parse_dates=["date"])
stores = pd.DataFrame(json.loads((root / "data" / "stores.json").read_text()))
weekly = (sales.merge(stores, on="store_id")
          .assign(week=lambda d: d["date"].dt.to_period("W").dt.start_time.dt.date)
          .groupby(["week", "store_id", "city"], as_index=False)
          .agg(units=("units", "sum"), revenue=("revenue", "sum")))
out = root / "out"
out.mkdir(exist_ok=True)
weekly.to_csv(out / "sales.csv", index=False)
print(f"extracted {len(weekly)} rows: {len(weekly['week'].unique())} weeks x {weekly['store_id'].nunique()} stores, "
      f"revenue {weekly['revenue'].sum():,.2f} EUR")
