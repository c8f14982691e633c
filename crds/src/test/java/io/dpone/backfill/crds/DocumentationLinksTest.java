package io.dpone.backfill.crds;

import io.dpone.backfill.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The documentation is self-contained: every relative link in README.md, src-docs/, adr/, the chart's READMEs and
 * examples/ names a file of this repository (and, with {@code #anchor}, a heading of that page by GitHub's rules,
 * {@link GitHubAnchors}), and every Markdown page a Java comment cites by a repository path is in the repository.
 * A user has only the repository: a page outside it (such as ../shared/) is a dead link for them.
 */
class DocumentationLinksTest {
    /** The module runs with its own directory as the working directory; the repository is its parent. */
    static final Path ROOT = RepositoryRoot.path();
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");
    private static final Pattern URL = Pattern.compile("[a-zA-Z][a-zA-Z0-9+.-]*://\\S+");
    private static final Pattern JAVA_COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
    /** A path broken at a slash across comment lines ("docs/a/\n * b.md") is one path. */
    private static final Pattern WRAPPED_AT_SLASH = Pattern.compile("/\\s*\\n\\s*\\*\\s*");
    private static final Pattern MD_PATH = Pattern.compile("(?<![\\w./-])((?:\\.{1,2}/)*[\\w.-]+(?:/[\\w.-]+)*\\.md)\\b");
    /** Pages of MicrosoftDocs/sql-docs, which the SQL Server adapter cites by their file names. */
    private static final Pattern SQL_DOCS_PAGE = Pattern.compile("[a-z0-9-]+\\.md");

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void repositoryRootIsFound() throws IOException {
        assertThat(ROOT.resolve("pom.xml")).isRegularFile();
        assertThat(ROOT.resolve("README.md")).isRegularFile();
        assertThat(documentationPages()).contains(ROOT.resolve("README.md"), ROOT.resolve("adr/README.md"),
                ROOT.resolve("src-docs/architecture.md"), ROOT.resolve("adr/0013-one-seam-for-every-database.md"));
    }

    @Test
    void everyRelativeLinkInTheDocumentationNamesAFileOfTheRepositoryAndAHeadingOfIt() throws IOException {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : documentationPages()) {
            for (MarkdownText.Link link : MarkdownText.links(Files.readString(page))) {
                if (link.target().isEmpty() || SCHEME.matcher(link.target()).find()) {
                    continue;
                }
                checked++;
                String problem = problem(page, link.target());
                if (problem != null) {
                    broken.add(ROOT.relativize(page) + ":" + link.line() + ": (" + link.target() + ") " + problem);
                }
            }
        }
        assertThat(checked).as("relative links found").isGreaterThan(100);
        assertThat(broken).as("links that lead nowhere a user of the repository can follow").isEmpty();
    }

    @Test
    void everyMarkdownPageCitedInAJavaCommentIsInTheRepository() throws IOException {
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (Path source : javaSources()) {
            String text = Files.readString(source);
            boolean citesSqlDocs = text.contains("sql-docs");
            Matcher comment = JAVA_COMMENT.matcher(text);
            while (comment.find()) {
                String body = URL.matcher(WRAPPED_AT_SLASH.matcher(comment.group()).replaceAll("/")).replaceAll(" ");
                Matcher cited = MD_PATH.matcher(body);
                while (cited.find()) {
                    checked++;
                    String problem = citationProblem(cited.group(1), citesSqlDocs);
                    if (problem != null) {
                        missing.add(ROOT.relativize(source) + ": " + cited.group(1) + ": " + problem);
                    }
                }
            }
        }
        assertThat(checked).as("Markdown paths cited in Java comments").isGreaterThan(10);
        assertThat(missing).as("Markdown pages cited in Java comments that a user of the repository does not have").isEmpty();
    }

    /** Null when {@code target}, written in {@code page}, resolves; else what is wrong. */
    private String problem(Path page, String target) throws IOException {
        int hash = target.indexOf('#');
        String path = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path file = path.isEmpty() ? page : page.getParent().resolve(path).normalize();
        if (!file.startsWith(ROOT)) {
            return "leaves the repository";
        }
        if (!Files.exists(file)) {
            return "no such file in the repository";
        }
        if (anchor != null && file.toString().endsWith(".md") && !anchorsOf(file).contains(anchor)) {
            return "no heading of " + ROOT.relativize(file) + " has the anchor #" + anchor;
        }
        return null;
    }

    /**
     * Null when a cited page is in the repository. A path is the repository's when its first directory is one of the
     * repository's (or it leads out of it: ../, shared/); a bare file name must be one of the repository's pages,
     * unless the file cites MicrosoftDocs/sql-docs, whose pages the SQL Server adapter names by file name. A path
     * whose first directory is not the repository's (docs/t-sql/... of sql-docs) belongs to another repository.
     */
    private String citationProblem(String cited, boolean citesSqlDocs) throws IOException {
        String path = cited.startsWith("./") ? cited.substring(2) : cited;
        int slash = path.indexOf('/');
        if (slash < 0) {
            if (pageNamed(path) || (citesSqlDocs && SQL_DOCS_PAGE.matcher(path).matches())) {
                return null;
            }
            return "no page of that name in the repository";
        }
        String first = path.substring(0, slash);
        if (first.equals("..") || first.equals("shared")) {
            return "outside the repository";
        }
        if (!Files.isDirectory(ROOT.resolve(first))) {
            return null;
        }
        return Files.isRegularFile(ROOT.resolve(path)) ? null : "no such file in the repository";
    }

    private boolean pageNamed(String name) throws IOException {
        try (Stream<Path> files = repositoryFiles()) {
            return files.anyMatch(p -> p.getFileName().toString().equals(name));
        }
    }

    private Set<String> anchorsOf(Path page) throws IOException {
        Set<String> known = anchors.get(page);
        if (known == null) {
            known = GitHubAnchors.of(Files.readString(page));
            anchors.put(page, known);
        }
        return known;
    }

    static List<Path> documentationPages() throws IOException {
        try (Stream<Path> files = repositoryFiles()) {
            return files.filter(p -> {
                String relative = ROOT.relativize(p).toString();
                String name = p.getFileName().toString();
                return relative.equals("README.md")
                        || (relative.startsWith("src-docs/") || relative.startsWith("adr/") || relative.startsWith("examples/"))
                        && name.endsWith(".md")
                        || relative.startsWith("helm/") && name.startsWith("README");
            }).sorted().toList();
        }
    }

    private static List<Path> javaSources() throws IOException {
        try (Stream<Path> files = repositoryFiles()) {
            return files.filter(p -> p.toString().endsWith(".java") && ROOT.relativize(p).toString().contains("/src/"))
                    .sorted().toList();
        }
    }

    /** The repository's files, without the modules' build output ({@code <module>/target/}) and version control. */
    private static Stream<Path> repositoryFiles() throws IOException {
        return Files.walk(ROOT).filter(Files::isRegularFile).filter(p -> {
            Path relative = ROOT.relativize(p);
            boolean buildOutput = relative.getNameCount() > 1 && relative.getName(1).toString().equals("target")
                    && Files.isRegularFile(ROOT.resolve(relative.getName(0)).resolve("pom.xml"));
            return !buildOutput && !relative.getName(0).toString().equals(".git");
        });
    }
}
