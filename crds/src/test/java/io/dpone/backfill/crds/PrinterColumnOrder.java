package io.dpone.backfill.crds;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts the CRD's printer columns in the order {@code kubectl get bfc} should show them. Fabric8's CRD generator
 * sorts them by jsonPath (AGE, from {@code .metadata}, would come first), and kubectl shows them in CRD order, so
 * the committed CRD is the generated one with only this block reordered, as text: every other byte stays the
 * generator's.
 */
final class PrinterColumnOrder {
    /** NAME is kubectl's own; AGE last, as in built-in resources. */
    static final List<String> ORDER = List.of("Phase", "Chunks", "Rows", "Rate", "ETA", "Ready", "Reason", "Group", "Passes", "Queued", "Age");

    private static final String START = "  - additionalPrinterColumns:\n";
    private static final Pattern NAME = Pattern.compile("^      name: \"([^\"]*)\"$", Pattern.MULTILINE);

    private PrinterColumnOrder() {
    }

    static String apply(String crd) {
        int start = crd.indexOf(START);
        if (start < 0) {
            throw new IllegalArgumentException("no additionalPrinterColumns block in the generated CRD");
        }
        int from = start + START.length();
        int to = from;
        while (to < crd.length() && (crd.startsWith("    - ", to) || crd.startsWith("      ", to))) {
            to = crd.indexOf('\n', to) + 1;
        }
        Map<String, String> byName = new LinkedHashMap<>();
        for (String item : items(crd.substring(from, to))) {
            Matcher m = NAME.matcher(item);
            if (!m.find()) {
                throw new IllegalArgumentException("a printer column without a name: " + item);
            }
            byName.put(m.group(1), item);
        }
        if (!byName.keySet().equals(new java.util.HashSet<>(ORDER)) || byName.size() != ORDER.size()) {
            throw new IllegalStateException("the model's printer columns " + byName.keySet() + " are not the ordered "
                    + ORDER + ": add the new column to PrinterColumnOrder.ORDER");
        }
        StringBuilder block = new StringBuilder();
        ORDER.forEach(n -> block.append(byName.get(n)));
        return crd.substring(0, from) + block + crd.substring(to);
    }

    private static List<String> items(String block) {
        List<String> items = new ArrayList<>();
        int i = 0;
        while (i < block.length()) {
            int next = block.indexOf("\n    - ", i);
            int end = next < 0 ? block.length() : next + 1;
            items.add(block.substring(i, end));
            i = end;
        }
        return items;
    }
}
