package io.dpone.backfill.redaction;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The credential values this process holds, so that {@link CredentialScrubber} removes them wherever they appear,
 * in whatever form a driver echoes them. Filled as connection settings are built (from a Secret, a secrets file or
 * the environment); never emptied, since the process keeps holding what it has read. Each value is kept as given,
 * URL-encoded, URL-decoded and JSON-escaped, the forms it takes in a URL, a driver message and a JSON document.
 */
public final class KnownSecrets {
    /**
     * Values shorter than this are not replaced where they stand alone: masking every "1" or "ab" would make output
     * unreadable and hide nothing worth hiding. The patterns still mask them after {@code password=} or in an
     * authority.
     */
    static final int SHORTEST = 4;
    private static final Pattern KEY = Pattern.compile("(?i)" + CredentialScrubber.CREDENTIAL_KEY);

    private static final Set<String> VALUES = ConcurrentHashMap.newKeySet();
    private static volatile List<String> longestFirst = List.of();

    private KnownSecrets() {
    }

    /** A credential value (a password, say) in every form it may be printed in; null and blank are ignored. */
    public static void remember(String secret) {
        if (secret == null || secret.isBlank()) {
            return;
        }
        Set<String> forms = new LinkedHashSet<>();
        forms.add(secret);
        forms.add(URLEncoder.encode(secret, StandardCharsets.UTF_8));
        forms.add(URLEncoder.encode(secret, StandardCharsets.UTF_8).replace("+", "%20"));
        forms.add(jsonEscaped(secret));
        try {
            forms.add(URLDecoder.decode(secret, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException notEncoded) {
            // "%zz" and the like: the value cannot have been decoded by anyone, so it is printed only as it is.
        }
        boolean added = false;
        for (String form : forms) {
            if (form.length() >= SHORTEST && VALUES.add(form)) {
                added = true;
            }
        }
        if (added) {
            longestFirst = VALUES.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList();
        }
    }

    /**
     * The credentials written into a connection URL: the password of a {@code user:password@} authority and the
     * value of every password-like key. A value's end depends on the driver ({@code &} for one, {@code ;} or a brace
     * for another), and this class names no driver, so every reading is remembered: over-masking costs nothing.
     */
    public static void rememberCredentialsIn(String url) {
        if (url == null) {
            return;
        }
        Matcher authority = CredentialScrubber.AUTHORITY.matcher(url);
        while (authority.find()) {
            remember(authority.group(2));
        }
        Matcher key = KEY.matcher(url);
        while (key.find()) {
            String rest = url.substring(key.end());
            if (rest.startsWith("{")) {
                int close = closingBrace(rest);
                remember(rest.substring(1, close).replace("}}", "}"));
            }
            remember(upTo(rest, ";&"));
            remember(upTo(rest, "&"));
            remember(upTo(rest, ";"));
        }
    }

    static List<String> longestFirst() {
        return longestFirst;
    }

    private static String upTo(String text, String stops) {
        for (int i = 0; i < text.length(); i++) {
            if (stops.indexOf(text.charAt(i)) >= 0) {
                return text.substring(0, i);
            }
        }
        return text;
    }

    /** The index of the brace that closes a braced value ({@code }}} is an escaped brace), or the end. */
    private static int closingBrace(String braced) {
        for (int i = 1; i < braced.length(); i++) {
            if (braced.charAt(i) == '}') {
                if (i + 1 < braced.length() && braced.charAt(i + 1) == '}') {
                    i++;
                } else {
                    return i;
                }
            }
        }
        return braced.length();
    }

    private static String jsonEscaped(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
