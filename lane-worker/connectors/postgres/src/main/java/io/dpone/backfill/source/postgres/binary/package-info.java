/**
 * Streaming decoder of PostgreSQL binary COPY, the source half of loading rows into SQL Server through a bulk copy.
 *
 * <p>{@link io.dpone.backfill.source.postgres.binary.SourceColumnPlanner} reads the catalog once and refuses what it
 * cannot load before any row moves; {@link io.dpone.backfill.source.postgres.binary.BinaryCopyReader} streams
 * {@code COPY (SELECT ...) TO STDOUT (FORMAT binary)} one tuple at a time;
 * {@link io.dpone.backfill.source.postgres.binary.PgTextRendering} prints decoded values as PostgreSQL prints
 * {@code col::text}, for digests.
 *
 * <p>Enums and arrays are turned into text by the server, under the COPY session's settings: an array of
 * timestamptz, float or bytea elements prints per that session's TimeZone, extra_float_digits and bytea_output.
 * Sessions whose text is digested or compared must pin TimeZone 'UTC', extra_float_digits 1 and bytea_output 'hex'
 * (pgjdbc already forces DateStyle ISO and client_encoding UTF8).
 */
package io.dpone.backfill.source.postgres.binary;
