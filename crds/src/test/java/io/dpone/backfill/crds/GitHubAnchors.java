package io.dpone.backfill.crds;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The anchors GitHub gives a Markdown page: one per heading, by the rule of its table-of-contents filter
 * (gjtorikian/html-pipeline, lib/html/pipeline/toc_filter.rb: the heading's rendered text, downcased, every character
 * that is not a word character, a hyphen or a space removed, spaces turned into hyphens, and a repeated anchor
 * suffixed "-1", "-2", ...), plus explicit {@code <a id>} / {@code <a name>} anchors. Headings inside fenced code
 * blocks are not headings.
 */
final class GitHubAnchors {
    private static final Pattern ATX_HEADING = Pattern.compile("^ {0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");
    /** Ruby's \p{Word}: letters, marks, digits, connector punctuation (the underscore). */
    private static final Pattern PUNCTUATION = Pattern.compile("[^\\p{L}\\p{M}\\p{Nd}\\p{Pc}\\- ]");
    private static final Pattern LINK = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");

    private GitHubAnchors() {
    }

    static Set<String> of(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : MarkdownText.outsideCodeFences(markdown)) {
            Matcher heading = ATX_HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(1));
                int count = seen.merge(slug, 1, Integer::sum);
                anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
            }
            Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find()) {
                anchors.add(html.group(1));
            }
        }
        return anchors;
    }

    /** The anchor of one heading, from its Markdown source: links count by their text, code by its content. */
    static String slug(String headingSource) {
        String text = LINK.matcher(headingSource).replaceAll(m -> Matcher.quoteReplacement(m.group(1)));
        return PUNCTUATION.matcher(text.toLowerCase(Locale.ROOT)).replaceAll("").replace(' ', '-');
    }
}
