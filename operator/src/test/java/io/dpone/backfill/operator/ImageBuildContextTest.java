package io.dpone.backfill.operator;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The images build from the repository root with {@code .dockerignore} trimming the context to the packaged artifacts
 * (README, "Build the images"): every path a Dockerfile COPYs from the context must be admitted, or the build fails
 * with "not found" (issue 37: the lane split left the lane jar excluded). Docker reads {@code .dockerignore} as
 * moby's patternmatcher does (docs.docker.com, "Dockerignore files"): patterns in order, the last one that matches a
 * path or one of its parent directories decides, {@code !} re-admits, {@code *} matches within one path element.
 * No Docker runs here: the rules are applied to the paths the Dockerfiles name.
 */
class ImageBuildContextTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern COPY = Pattern.compile("(?m)^COPY\\s+((?:--\\S+\\s+)*)(.+)$");

    @Test
    void everyPathTheImagesCopyFromTheContextIsAdmittedByDockerignore() throws IOException {
        List<String> patterns = Files.readAllLines(ROOT.resolve(".dockerignore")).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        List<String> copied = new ArrayList<>();
        for (String dockerfile : List.of("Dockerfile.jvm", "Dockerfile.lane")) {
            Matcher m = COPY.matcher(Files.readString(ROOT.resolve("operator/src/main/docker").resolve(dockerfile)));
            while (m.find()) {
                if (m.group(1).contains("--from=")) {
                    continue;
                }
                String[] parts = m.group(2).trim().split("\\s+");
                for (int i = 0; i < parts.length - 1; i++) {
                    copied.add(parts[i].replaceAll("/$", "").replace("*.jar", "quarkus-run.jar"));
                }
            }
        }
        assertThat(copied).contains("lane/target/backfill-lane.jar", "operator/target/quarkus-app/lib")
                .allSatisfy(path -> assertThat(admitted(patterns, path)).as(path + " in the build context").isTrue());
        assertThat(admitted(patterns, "lane-worker/target/backfill.jar")).as("nothing else is sent").isFalse();
        assertThat(admitted(patterns, "README.md")).isFalse();
    }

    /** Whether Docker sends {@code path} in the build context under {@code patterns}. */
    static boolean admitted(List<String> patterns, String path) {
        boolean excluded = false;
        for (String pattern : patterns) {
            boolean negated = pattern.startsWith("!");
            String body = (negated ? pattern.substring(1) : pattern).replaceAll("/$", "");
            if (matchesOrParent(body, path)) {
                excluded = !negated;
            }
        }
        return !excluded;
    }

    private static boolean matchesOrParent(String pattern, String path) {
        Pattern regex = Pattern.compile(pattern.replace(".", "\\.").replace("**", "\u0000").replace("*", "[^/]*")
                .replace("?", "[^/]").replace("\u0000", ".*"));
        for (String p = path; ; p = p.substring(0, p.lastIndexOf('/'))) {
            if (regex.matcher(p).matches()) {
                return true;
            }
            if (p.indexOf('/') < 0) {
                return false;
            }
        }
    }
}
