package io.dpone.backfill.core.campaign;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Loads the shipped example campaigns (examples/ is a test resource folder) and edits them. */
public final class CampaignYamlFixture {
    private CampaignYamlFixture() {
    }

    public static String mssql() {
        return resource("/pg-to-mssql-orders.yaml");
    }

    public static String postgres() {
        return resource("/pg-to-pg-events.yaml");
    }

    /** Replaces exactly one occurrence of {@code from}, so a test can never silently edit nothing. */
    public static String replaceOnce(String yaml, String from, String to) {
        int at = yaml.indexOf(from);
        if (at < 0 || yaml.indexOf(from, at + 1) >= 0) {
            throw new IllegalArgumentException("expected exactly one '" + from + "' in the fixture");
        }
        return yaml.substring(0, at) + to + yaml.substring(at + from.length());
    }

    private static String resource(String name) {
        try (InputStream in = CampaignYamlFixture.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
