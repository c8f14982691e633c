package io.dpone.backfill.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The repository's top folder, found from wherever a suite runs (Maven starts each module's tests in that module's
 * folder, which sits one to three levels down). Suites that read the README, docs, chart, examples or another
 * module's build output resolve them here rather than counting {@code ..}, so moving a module moves nothing else.
 */
public final class RepositoryRoot {
    private static final Path ROOT = find(Path.of("").toAbsolutePath());

    private RepositoryRoot() {
    }

    /** The top folder itself. */
    public static Path path() {
        return ROOT;
    }

    /** A path below the top folder, one element per folder ({@code resolve("helm", "backfill-operator")}). */
    public static Path resolve(String first, String... more) {
        return ROOT.resolve(Path.of(first, more));
    }

    static Path find(Path start) {
        // The Maven wrapper's folder exists only at the top; a module's pom.xml alone would stop too early.
        for (Path p = start; p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve(".mvn")) && Files.isRegularFile(p.resolve("pom.xml"))) {
                return p.normalize();
            }
        }
        throw new IllegalStateException("no repository top folder (.mvn beside pom.xml) above " + start);
    }
}
