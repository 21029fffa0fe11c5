-- SQL on a Zarr store, as typed into a spark-sql or spark-shell session.
-- Needs the path catalog:  --conf spark.sql.catalog.zarr=io.github.sparkzarr.spark.ZarrCatalog
-- and the store to query:  SET store=/path/to/era5_small.zarr;
-- (the era5_small sample is src/test/resources/corpus/datasets/era5_small.zarr).
-- Run it as a job: see ZarrSqlJob.java; ExamplesTest runs it on every build.

CREATE OR REPLACE TEMPORARY VIEW era5 AS SELECT * FROM zarr.`${store}`;

DESCRIBE era5;

-- One row per (time, lat, lon); t2m is CF-decoded (scale_factor, add_offset) to kelvin.
SELECT count(*) AS cells, min(time) AS first_hour, max(time) AS last_hour FROM era5;

-- A box and a day: only the chunks that meet the filter are read.
SELECT round(avg(t2m), 3) AS mean_t2m, count(*) AS cells
FROM era5
WHERE lat BETWEEN 30 AND 40 AND time >= TIMESTAMP_NTZ '2020-01-02 00:00:00';

SELECT lat, round(avg(t2m), 2) AS mean_t2m FROM era5 GROUP BY lat ORDER BY lat DESC LIMIT 5;

-- Fails the script if the store is not read whole: 48 hours x 36 latitudes x 72 longitudes.
SELECT assert_true(count(*) = 48 * 36 * 72, 'expected one row per hour and grid cell') AS checked
FROM era5;
