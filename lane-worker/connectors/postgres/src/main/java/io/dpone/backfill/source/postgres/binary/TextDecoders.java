package io.dpone.backfill.source.postgres.binary;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Decoders of the variable-length send formats: text-like types, jsonb and bytea. */
final class TextDecoders {
    /**
     * text, varchar, bpchar, name, json and everything cast to text. The planner requires UTF8 as server and client
     * encoding, and PostgreSQL validates UTF-8 on input, so these bytes are well-formed UTF-8.
     */
    static final ColumnDecoder TEXT = (b, off, len) -> new String(b, off, len, StandardCharsets.UTF_8);

    /** jsonb_send: a version byte (1) followed by the jsonb's text form. */
    static final ColumnDecoder JSONB = (b, off, len) -> {
        if (len < 1 || b[off] != 1) {
            throw new BinaryCopyFormatException("jsonb field without version byte 1"
                    + (len < 1 ? "" : " (found " + b[off] + ")"));
        }
        return new String(b, off + 1, len - 1, StandardCharsets.UTF_8);
    };

    /** The reader reuses its buffer, so bytea gets its own copy. */
    static final ColumnDecoder BYTEA = (b, off, len) -> Arrays.copyOfRange(b, off, off + len);

    private TextDecoders() {
    }
}
