package io.dpone.backfill.targets.mssql.types;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * One value-domain rule of a type pair, checked on every non-NULL decoded value as rows stream, so a value the
 * target cannot hold exactly fails the chunk instead of being rounded, cut or clamped by the driver or the server.
 *
 * @param rule   what a value must satisfy, in words a person can act on
 * @param admits true for the values the target holds exactly
 */
record ValueGuard(String rule, Predicate<Object> admits) {
    ValueGuard {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(admits, "admits");
    }

    boolean admitsValue(Object value) {
        return admits.test(value);
    }
}
