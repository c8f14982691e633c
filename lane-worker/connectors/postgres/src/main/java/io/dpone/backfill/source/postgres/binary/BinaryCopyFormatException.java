package io.dpone.backfill.source.postgres.binary;

import java.io.IOException;

/** The byte stream is not the binary COPY format the plan expects: truncated, wrong signature, wrong field widths. */
public class BinaryCopyFormatException extends IOException {
    public BinaryCopyFormatException(String message) {
        super(message);
    }
}
