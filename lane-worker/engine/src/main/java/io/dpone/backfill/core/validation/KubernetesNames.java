package io.dpone.backfill.core.validation;

import java.util.regex.Pattern;

/** Kubernetes object-name syntax, checked as plain strings so core needs no Kubernetes types. */
final class KubernetesNames {
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
    private static final Pattern LABEL_KEY_NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    /** Lane pods are named {@code <campaign>-lane-<n>-<attempt>}; keep room for the suffix within 63 characters. */
    static final int MAX_CAMPAIGN_NAME = 45;

    private KubernetesNames() {
    }

    static void campaignName(String name, String path, Errors errors) {
        if (!errors.require(name, path)) {
            return;
        }
        if (name.length() > MAX_CAMPAIGN_NAME || !DNS_LABEL.matcher(name).matches()) {
            errors.add(path, "dns-label", "must be a lowercase RFC 1123 label of at most " + MAX_CAMPAIGN_NAME
                    + " characters (lane pod names extend it), got '" + printable(name) + "'");
        }
    }

    static void namespace(String name, String path, Errors errors) {
        if (name != null && (name.length() > 63 || !DNS_LABEL.matcher(name).matches())) {
            errors.add(path, "dns-label", "must be a lowercase RFC 1123 label of at most 63 characters");
        }
    }

    static void secretName(String name, String path, Errors errors) {
        if (!errors.require(name, path)) {
            return;
        }
        if (name.length() > 253 || !DNS_SUBDOMAIN.matcher(name).matches()) {
            errors.add(path, "dns-subdomain", "must be a Secret name: a lowercase RFC 1123 subdomain of at most 253 characters");
        }
    }

    static void labelKey(String key, String path, Errors errors) {
        String name = key;
        int slash = key.indexOf('/');
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            name = key.substring(slash + 1);
            if (prefix.length() > 253 || !DNS_SUBDOMAIN.matcher(prefix).matches()) {
                errors.add(path, "label-key", "has an invalid prefix '" + printable(prefix) + "'");
                return;
            }
        }
        if (name.length() > 63 || !LABEL_KEY_NAME.matcher(name).matches()) {
            errors.add(path, "label-key", "'" + printable(key) + "' is not a valid label key");
        }
    }

    static void labelValue(String value, String path, Errors errors) {
        if (value == null || value.length() > 63 || !LABEL_VALUE.matcher(value).matches()) {
            errors.add(path, "label-value", "must be a label value of at most 63 characters");
        }
    }

    /** Echoes user input safely into a message: control and format characters become escapes. */
    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(80).forEach(cp -> {
            int type = Character.getType(cp);
            if (type == Character.CONTROL || type == Character.FORMAT) {
                b.append(String.format("\\u%04X", cp));
            } else {
                b.appendCodePoint(cp);
            }
        });
        return b.toString();
    }
}
