package io.dpone.backfill.pgembedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IdentifiersTest {

    @Test
    void databaseNamesMustBePlainIdentifiers() {
        assertThat(Identifiers.requireDatabaseName("orders_2024")).isEqualTo("orders_2024");
        assertThat(Identifiers.requireDatabaseName("_Mixed")).isEqualTo("_Mixed");
        for (String bad : new String[] {"", "1abc", "a-b", "a b", "a\"b", "a;b", "x".repeat(64), null}) {
            assertThatThrownBy(() -> Identifiers.requireDatabaseName(bad))
                    .as(String.valueOf(bad)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void settingsAreValidatedAndQuoted() {
        assertThat(Identifiers.requireSettingName("pg_stat_statements.track")).isNotNull();
        assertThatThrownBy(() -> Identifiers.requireSettingName("work_mem = 1; x"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Identifiers.requireSettingValue("a\nb")).isInstanceOf(IllegalArgumentException.class);
        assertThat(Identifiers.confLiteral("it's \\ here")).isEqualTo("'it''s \\\\ here'");
    }

    @Test
    void builderRejectsThePortSetting() {
        assertThatThrownBy(() -> EmbeddedPostgres.builder().setting("port", "5432"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("port(int)");
    }
}
