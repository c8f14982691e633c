package io.dpone.backfill.core.source;

/** Reads how busy the source is now (issue 28); one cheap catalog read a call. */
public interface SourceLoadProbe {
    SourceLoad read();
}
