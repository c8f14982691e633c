package io.dpone.backfill.core.doctor;

import java.util.stream.Collectors;

/** Pre-flight found at least one ERROR: the campaign did not start and nothing was created. */
public class PreflightRefusedException extends RuntimeException {
    private final PreflightResult result;

    public PreflightRefusedException(PreflightResult result) {
        super("pre-flight refused the campaign (" + result.errors().size() + " error(s)), nothing was created: "
                + result.errors().stream().map(f -> f.code() + ": " + f.message()).collect(Collectors.joining("; ")));
        this.result = result;
    }

    public PreflightResult result() {
        return result;
    }
}
