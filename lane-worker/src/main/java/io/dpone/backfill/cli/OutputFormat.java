package io.dpone.backfill.cli;

/** Output formats of the reporting commands. */
enum OutputFormat {
    text, json
}
