package io.dpone.backfill.redaction;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes credentials from text before it leaves the process: every line printed, every status message, Event and
 * log record passes through {@link #scrub}. Two nets, because neither catches everything alone:
 *
 * <ol>
 *   <li>the shapes credentials take in connection URLs and driver messages, whatever the database:
 *       {@code user:password@} in an authority (with or without the {@code //} before it, since a driver may echo the
 *       authority as a host name), and {@code key=value} where the key names a password, secret or token
 *       ({@code password}, {@code sslpassword}, {@code pwd}, {@code trustStorePassword}, {@code keyStoreSecret},
 *       {@code accessToken}...), case-insensitive, its value ending at {@code ;}, {@code &}, a quote or white space,
 *       or braced as {@code {...}} with {@code }}} for a brace;</li>
 *   <li>the exact values this process holds ({@link KnownSecrets}): a driver that echoes a password in a form the
 *       patterns cannot know (a port number it could not parse, a host it could not resolve) still prints none.</li>
 * </ol>
 *
 * The key and the user name stay, so a message still says which setting was wrong.
 */
public final class CredentialScrubber {
    public static final String MASK = "***";

    /** A key whose value is a credential, with its {@code =}; used case-insensitively. */
    static final String CREDENTIAL_KEY = "(?<![\\w.-])[\\w.-]*(?:password|passwd|pwd|secret|token|credential)[\\w.-]*\\s*=\\s*";
    /** Key (kept, group 1), then the value: braced, or up to a separator. */
    static final Pattern KEY_VALUE = Pattern.compile("(?i)(" + CREDENTIAL_KEY + ")(\\{(?:[^}\\r\\n]|}})*+}?|[^;&\\s\"']*)");
    /**
     * Keys that name where a credential is, never the credential: the CLI's {@code --secrets=FILE} and
     * {@code generate}'s {@code --source-secret}/{@code --target-secret} (a Secret's name) in usage lines and the commands
     * it suggests, and a Kubernetes Secret's reference or name. Masking them would hide which file or
     * Secret a message means; a value that is a credential after all is still caught by {@link KnownSecrets}.
     */
    static final Pattern REFERENCE_KEY = Pattern.compile("(?i)(?:--secrets|--(?:source|target)-secret|[\\w.-]*secret(?:ref|name))\\s*=\\s*");
    /** {@code //user:password@}: the user (group 1) stays. */
    static final Pattern AUTHORITY = Pattern.compile("(//[^/?#@\\s:;]*):([^/?#\\s]*)@");
    /** {@code user:password@host} without the {@code //}, as a driver prints an authority it took for a host. */
    static final Pattern BARE_USER_INFO = Pattern.compile("(?<![\\w.:/@-])([\\w.-]+):([^\\s/@:]+)@(?=[\\w\\[])");

    private CredentialScrubber() {
    }

    /** The text with every credential it holds replaced by {@value #MASK}; null stays null. */
    public static String scrub(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String out = KEY_VALUE.matcher(text).replaceAll(m -> Matcher.quoteReplacement(
                REFERENCE_KEY.matcher(m.group(1)).matches() ? m.group() : m.group(1) + MASK));
        out = AUTHORITY.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + ":" + MASK + "@"));
        out = BARE_USER_INFO.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + ":" + MASK + "@"));
        for (String secret : KnownSecrets.longestFirst()) {
            out = out.replace(secret, MASK);
        }
        return out;
    }
}
