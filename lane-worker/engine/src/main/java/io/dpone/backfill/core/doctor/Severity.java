package io.dpone.backfill.core.doctor;

/** How much a doctor finding matters: OK passed, WARNING needs a person's attention, ERROR blocks the campaign. */
public enum Severity {
    OK, WARNING, ERROR
}
