package io.dpone.backfill.core.validation;

import java.util.List;
import java.util.stream.Collectors;

/** A campaign that failed parsing or validation; raised before any I/O so nothing is created for it. */
public class CampaignRejectedException extends RuntimeException {
    private final transient List<FieldError> errors;

    public CampaignRejectedException(List<FieldError> errors) {
        super("campaign rejected:\n  " + errors.stream().map(FieldError::toString).collect(Collectors.joining("\n  ")));
        this.errors = List.copyOf(errors);
    }

    public List<FieldError> errors() {
        return errors;
    }
}
