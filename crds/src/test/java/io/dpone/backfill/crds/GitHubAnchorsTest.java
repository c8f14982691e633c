package io.dpone.backfill.crds;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** GitHub's heading anchors (gjtorikian/html-pipeline, lib/html/pipeline/toc_filter.rb), as the link test uses them. */
class GitHubAnchorsTest {
    @Test
    void punctuationGoesSpacesBecomeHyphensCaseFolds() {
        assertThat(GitHubAnchors.slug("Two commands on a fresh machine (only a JDK 17+ needed)"))
                .isEqualTo("two-commands-on-a-fresh-machine-only-a-jdk-17-needed");
        assertThat(GitHubAnchors.slug("Verify content: `backfill verify`")).isEqualTo("verify-content-backfill-verify");
        assertThat(GitHubAnchors.slug("PostgreSQL to SQL Server")).isEqualTo("postgresql-to-sql-server");
        assertThat(GitHubAnchors.slug("1. What it does")).isEqualTo("1-what-it-does");
        assertThat(GitHubAnchors.slug("snake_case and a-hyphen")).isEqualTo("snake_case-and-a-hyphen");
    }

    @Test
    void aLinkCountsByItsTextAndARepeatedHeadingIsNumbered() {
        assertThat(GitHubAnchors.of("# A [link](x.md)\n## Notes\n### Notes\n## Notes\n"))
                .containsExactly("a-link", "notes", "notes-1", "notes-2");
    }

    @Test
    void headingsInCodeFencesAreNotHeadingsAndExplicitAnchorsCount() {
        assertThat(GitHubAnchors.of("```sh\n# a shell comment\n```\n<a id=\"exit-codes\"></a>\n# Real\n"))
                .containsExactly("exit-codes", "real");
    }
}
