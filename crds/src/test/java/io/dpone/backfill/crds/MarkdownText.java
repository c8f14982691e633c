package io.dpone.backfill.crds;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What of a Markdown page GitHub renders as text: the lines outside fenced code blocks, and the link targets in them
 * (inline links and images, and reference definitions), with code spans left out because a link inside one is
 * shown, not followed.
 */
final class MarkdownText {
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");
    private static final Pattern INLINE_LINK = Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE_DEFINITION = Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s+.*)?$");

    /** One link: the 1-based line it is on and its target as written. */
    record Link(int line, String target) {
    }

    private MarkdownText() {
    }

    static List<String> outsideCodeFences(String markdown) {
        List<String> lines = new ArrayList<>();
        String open = null;
        for (String line : markdown.split("\n", -1)) {
            Matcher fence = FENCE.matcher(line);
            if (open == null && fence.find()) {
                open = fence.group(1);
                lines.add("");
            } else if (open != null) {
                if (fence.find() && fence.group(1).charAt(0) == open.charAt(0) && fence.group(1).length() >= open.length()) {
                    open = null;
                }
                lines.add("");
            } else {
                lines.add(line);
            }
        }
        return lines;
    }

    static List<Link> links(String markdown) {
        List<Link> links = new ArrayList<>();
        List<String> lines = outsideCodeFences(markdown);
        for (int i = 0; i < lines.size(); i++) {
            String line = CODE_SPAN.matcher(lines.get(i)).replaceAll("");
            Matcher inline = INLINE_LINK.matcher(line);
            while (inline.find()) {
                links.add(new Link(i + 1, inline.group(1)));
            }
            Matcher reference = REFERENCE_DEFINITION.matcher(line);
            if (reference.matches()) {
                links.add(new Link(i + 1, reference.group(1)));
            }
        }
        return links;
    }
}
