package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.SourceType;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.postgres.PostgresEndpoint;
import io.dpone.backfill.source.postgres.PostgresSourceAdapter;
import io.dpone.backfill.targets.mssql.MssqlEndpoint;
import io.dpone.backfill.targets.mssql.MssqlTargetAdapter;
import io.dpone.backfill.targets.postgres.PostgresTargetAdapter;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConnectorsTest {
    @Test
    void everyTargetTypeHasItsAdapterWithItsOwnEndpoint() {
        assertThat(Connectors.target(TargetType.POSTGRES)).isInstanceOf(PostgresTargetAdapter.class);
        assertThat(Connectors.target(TargetType.MSSQL)).isInstanceOf(MssqlTargetAdapter.class);
        assertThat(Connectors.target(TargetType.MSSQL).endpoint()).isSameAs(MssqlEndpoint.INSTANCE);
        assertThat(Connectors.target(TargetType.MSSQL).endpoint().jdbcUrl("db.example", "1433", "orders"))
                .isEqualTo("jdbc:sqlserver://db.example:1433;databaseName=orders");
    }

    @Test
    void theSourceComesFromTheSameRegistryWithItsOwnEndpoint() {
        assertThat(Connectors.source(SourceType.POSTGRES)).isInstanceOf(PostgresSourceAdapter.class);
        assertThat(Connectors.source(SourceType.POSTGRES).endpoint()).isSameAs(PostgresEndpoint.INSTANCE);
    }

    @Test
    void aTypeWithoutARegisteredAdapterIsRefusedByName() {
        Connectors onlyPostgres = new Connectors(List.of(), List.of(new PostgresTargetAdapter()));
        assertThatThrownBy(() -> onlyPostgres.targetFor(TargetType.MSSQL))
                .isInstanceOf(UnsupportedTargetException.class).hasMessageContaining("target type mssql has no adapter");
        assertThatThrownBy(() -> onlyPostgres.sourceFor(SourceType.POSTGRES))
                .isInstanceOf(UnsupportedSourceException.class).hasMessageContaining("source type postgres has no adapter");
    }
}
