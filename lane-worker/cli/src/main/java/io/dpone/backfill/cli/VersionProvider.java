package io.dpone.backfill.cli;

import picocli.CommandLine;

/** Reports the version from the jar manifest (or "dev" when run from classes). */
public final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = BackfillCli.class.getPackage().getImplementationVersion();
        return new String[]{"backfill " + (version == null ? "dev" : version)};
    }
}
