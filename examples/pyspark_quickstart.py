"""spark-zarr from PySpark: read a Zarr store as a DataFrame and query it with SQL.

Run (with a Spark 3.5 or 4.0 distribution):
    spark-submit --jars spark-zarr_2.13-0.1.0-SNAPSHOT-bundle.jar \
        examples/pyspark_quickstart.py /path/to/era5_small.zarr
"""
import sys

from pyspark.sql import SparkSession


def main(store):
    spark = (
        SparkSession.builder.appName("spark-zarr pyspark quickstart")
        # The one line that makes SELECT ... FROM zarr.`/path/to/store.zarr` work:
        .config("spark.sql.catalog.zarr", "io.github.sparkzarr.spark.ZarrCatalog")
        .getOrCreate()
    )
    try:
        df = spark.read.format("zarr").load(store)
        df.printSchema()
        df.where("lat BETWEEN 30 AND 40").groupBy("lat").avg("t2m").orderBy("lat").show()

        cells = spark.sql(f"SELECT count(*) AS n FROM zarr.`{store}`").first()["n"]
        print(f"{cells} rows, one per time step and grid cell")
    finally:
        spark.stop()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: pyspark_quickstart.py <store path or URI>")
    main(sys.argv[1])
