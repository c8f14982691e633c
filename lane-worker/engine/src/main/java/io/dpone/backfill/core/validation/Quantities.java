package io.dpone.backfill.core.validation;

import io.dpone.backfill.core.campaign.ResourceAmounts;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The numeric value of a Kubernetes quantity in the CRD's syntax (a decimal with an optional SI or binary suffix),
 * enough to compare a request with a limit as the API server does (kubernetes/kubernetes
 * pkg/apis/core/validation/validation.go, ValidateResourceRequirements: a request "must be less than or equal to"
 * its limit). Text in, number out, so core needs no Kubernetes types.
 */
public final class Quantities {
    /** The CRD's syntax ({@link ResourceAmounts#QUANTITY_PATTERN}): its last group is the suffix. */
    private static final Pattern SYNTAX = Pattern.compile(ResourceAmounts.QUANTITY_PATTERN);
    private static final Map<String, BigDecimal> SUFFIX = Map.ofEntries(
            Map.entry("m", new BigDecimal("0.001")), Map.entry("k", BigDecimal.TEN.pow(3)), Map.entry("M", BigDecimal.TEN.pow(6)),
            Map.entry("G", BigDecimal.TEN.pow(9)), Map.entry("T", BigDecimal.TEN.pow(12)), Map.entry("P", BigDecimal.TEN.pow(15)),
            Map.entry("E", BigDecimal.TEN.pow(18)), Map.entry("Ki", BigDecimal.valueOf(2).pow(10)),
            Map.entry("Mi", BigDecimal.valueOf(2).pow(20)), Map.entry("Gi", BigDecimal.valueOf(2).pow(30)),
            Map.entry("Ti", BigDecimal.valueOf(2).pow(40)), Map.entry("Pi", BigDecimal.valueOf(2).pow(50)),
            Map.entry("Ei", BigDecimal.valueOf(2).pow(60)));

    private Quantities() {
    }

    /** The value, or empty when the text is not a quantity (validation reports that separately). */
    public static Optional<BigDecimal> value(String quantity) {
        if (quantity == null) {
            return Optional.empty();
        }
        Matcher m = SYNTAX.matcher(quantity);
        if (!m.matches()) {
            return Optional.empty();
        }
        String suffix = m.group(m.groupCount());
        BigDecimal number = new BigDecimal(suffix == null ? quantity : quantity.substring(0, quantity.length() - suffix.length()));
        return Optional.of(suffix == null ? number : number.multiply(SUFFIX.get(suffix)));
    }

    /** True when both are quantities and the first is larger. */
    public static boolean exceeds(String request, String limit) {
        Optional<BigDecimal> r = value(request);
        Optional<BigDecimal> l = value(limit);
        return r.isPresent() && l.isPresent() && r.get().compareTo(l.get()) > 0;
    }
}
