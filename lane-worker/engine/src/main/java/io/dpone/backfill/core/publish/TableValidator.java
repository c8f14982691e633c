package io.dpone.backfill.core.publish;

import java.util.List;

/** Exact counts on a loaded table, as the target computes them (see {@link ShadowPublisher#validate}). */
@FunctionalInterface
public interface TableValidator {
    ValidationResult validate(String schema, String table, List<String> uniqueKey, long expectedRows);
}
