package io.dpone.backfill.core.encoding;

import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.engine.DatabaseFailureException;

import io.dpone.backfill.core.campaign.LoadColumns;

/**
 * How lanes will move rows for the load columns, decided at preparation by the target's adapter from both catalogs
 * (binary COPY pass-through only when every column's type is identical on both sides, ADR 0017) and recorded in
 * the ledger, so every lane of the campaign moves rows the same way.
 */
@FunctionalInterface
public interface RowEncodingChoice {
    /** Fails with a {@link io.dpone.backfill.core.engine.DatabaseFailureException} when a catalog cannot be read. */
    RowEncoding choose(LoadColumns loadColumns);
}
