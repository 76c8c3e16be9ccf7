"""Retail sales dashboard (Streamlit) over the sample retail dataset.

Run it with `python dashboard.py` (as Ludis runs an app's entry file): it starts Streamlit on $PORT.
It reads the sample data in data/ of this project, and the nightly extract the `nightly`
workflow publishes to the `sales` dataset, when there is one.
"""

import io
import json
import os
import sys
from pathlib import Path

import pandas as pd
import plotly.express as px
import streamlit as st

HERE = Path(__file__).resolve().parent


def serve() -> None:
    """Starts the Streamlit server on this file (behind the Ludis app proxy, which checks access
    and origins itself)."""
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", str(Path(__file__).resolve()),
                "--server.port", os.environ.get("PORT", "8501"), "--server.address", "0.0.0.0",
                "--server.headless", "true", "--server.enableCORS", "false",
                "--server.enableXsrfProtection", "false", "--browser.gatherUsageStats", "false"]
    sys.exit(cli.main())


@st.cache_data
def load_sales() -> pd.DataFrame:
    sales = pd.read_csv(HERE / "data" / "sales.csv", parse_dates=["date"])
    stores = pd.DataFrame(json.loads((HERE / "data" / "stores.json").read_text()))
    return sales.merge(stores, on="store_id")


@st.cache_data(ttl=300)
def load_nightly() -> pd.DataFrame | None:
    """The latest nightly extract from the `sales` dataset (s3://bucket/prefix/daily/sales.csv),
    read with the pod's own identity (boto3 takes the variables the operator set); None until the
    nightly workflow wrote it, or when the dataset cannot be reached."""
    location = os.environ.get("LUDIS_DATASET_SALES")
    if not location:
        return None
    import boto3
    import botocore.exceptions

    bucket, _, prefix = location.removeprefix("s3://").partition("/")
    try:
        body = boto3.client("s3").get_object(Bucket=bucket, Key=f"{prefix}daily/sales.csv")["Body"]
    except (botocore.exceptions.ClientError, botocore.exceptions.BotoCoreError):
        return None
    return pd.read_csv(io.BytesIO(body.read()))


def page() -> None:
    st.set_page_config(page_title="Retail sales", layout="wide")
    st.title("Retail sales")
    sales = load_sales()
    regions = st.multiselect("Regions", sorted(sales["region"].unique()), default=sorted(sales["region"].unique()))
    shown = sales[sales["region"].isin(regions)]

    total, units, stores = st.columns(3)
    total.metric("Revenue (EUR)", f"{shown['revenue'].sum():,.0f}")
    units.metric("Units sold", f"{shown['units'].sum():,}")
    stores.metric("Stores", shown["store_id"].nunique())

    weekly = (shown.assign(week=shown["date"].dt.to_period("W").dt.start_time)
              .groupby(["week", "city"], as_index=False)["revenue"].sum())
    st.plotly_chart(px.line(weekly, x="week", y="revenue", color="city", markers=True,
                            title="Weekly revenue by store"), use_container_width=True)
    by_product = shown.groupby(["product", "category"], as_index=False)["units"].sum().sort_values("units")
    st.plotly_chart(px.bar(by_product, x="units", y="product", color="category", orientation="h",
                           title="Units by product"), use_container_width=True)

    st.subheader("Nightly extract")
    nightly = load_nightly()
    if nightly is None:
        st.info("The nightly workflow has not published an extract to the sales dataset yet.")
    else:
        st.dataframe(nightly, use_container_width=True)


if __name__ == "__main__" and not st.runtime.exists():
    serve()
else:
    page()
