package io.dpone.backfill.cli;

/** Output formats of the reporting commands. */
public enum OutputFormat {
    text, json
}
