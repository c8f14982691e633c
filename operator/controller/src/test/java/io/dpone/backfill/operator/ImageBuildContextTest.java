package io.dpone.backfill.operator;

import io.dpone.backfill.testsupport.RepositoryRoot;
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
    private static final Path ROOT = RepositoryRoot.path();
    private static final Pattern COPY = Pattern.compile("(?m)^COPY\\s+((?:--\\S+\\s+)*)(.+)$");

    private static final Pattern DOCKER_BUILD = Pattern.compile("(?m)^docker build -f (\\S+)[ \\t][^\\n]*[ \\t](\\S+)$");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^\\./mvnw .*-pl (\\S+) .*package.*$");

    /** The Dockerfiles the README's {@code docker build} lines build, each from the repository root. */
    static List<String> readmeDockerfiles() throws IOException {
        Matcher m = DOCKER_BUILD.matcher(Files.readString(ROOT.resolve("README.md")));
        List<String> dockerfiles = new ArrayList<>();
        while (m.find()) {
            assertThat(m.group(2)).as("the README builds " + m.group(1) + " with the repository root as context").isEqualTo(".");
            dockerfiles.add(m.group(1));
        }
        assertThat(dockerfiles).as("README docker build lines").hasSize(2);
        return dockerfiles;
    }

    /**
     * Issue 37: a COPY source must also be something the README's package command builds: a path under a module it
     * names ({@code -pl}), a jar whose name that module's pom gives its build, or a Quarkus application.
     */
    @Test
    void everyPathTheImagesCopyIsBuiltByTheReadmesPackageCommand() throws IOException {
        Matcher pkg = PACKAGE.matcher(Files.readString(ROOT.resolve("README.md")));
        assertThat(pkg.find()).as("the README's ./mvnw ... -pl ... package line").isTrue();
        List<String> modules = List.of(pkg.group(1).split(","));
        for (String path : copiedPaths()) {
            String module = modules.stream().filter(mod -> path.startsWith(mod + "/target/")).findFirst()
                    .orElseThrow(() -> new AssertionError(path + " is under no module the README packages " + modules));
            String pom = Files.readString(ROOT.resolve(module).resolve("pom.xml"));
            String built = path.substring((module + "/target/").length());
            if (built.startsWith("quarkus-app")) {
                assertThat(pom).as(module + "/pom.xml builds a Quarkus application").contains("quarkus-maven-plugin");
            } else {
                assertThat(built).as(path).endsWith(".jar");
                assertThat(pom).as(module + "/pom.xml builds " + built)
                        .contains("<finalName>" + built.substring(0, built.length() - ".jar".length()) + "</finalName>");
            }
        }
    }

    @Test
    void everyPathTheImagesCopyFromTheContextIsAdmittedByDockerignore() throws IOException {
        List<String> patterns = Files.readAllLines(ROOT.resolve(".dockerignore")).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        List<String> copied = copiedPaths();
        assertThat(copied).contains("lane-worker/worker/target/backfill-lane.jar", "operator/controller/target/quarkus-app/lib")
                .allSatisfy(path -> assertThat(admitted(patterns, path)).as(path + " in the build context").isTrue());
        assertThat(admitted(patterns, "lane-worker/cli/target/backfill.jar")).as("nothing else is sent").isFalse();
        assertThat(admitted(patterns, "README.md")).isFalse();
    }

    /** Every path the README's Dockerfiles COPY from the build context (stages' own copies left out). */
    private static List<String> copiedPaths() throws IOException {
        List<String> copied = new ArrayList<>();
        for (String dockerfile : readmeDockerfiles()) {
            Matcher m = COPY.matcher(Files.readString(ROOT.resolve(dockerfile)));
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
        return copied;
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
