package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.target.mssql.MssqlEndpoint;
import io.dpone.backfill.target.mssql.MssqlTargetAdapter;
import io.dpone.backfill.target.postgres.PostgresTargetAdapter;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TargetAdaptersTest {
    @Test
    void everyTargetTypeHasItsAdapterWithItsOwnEndpoint() {
        assertThat(TargetAdapters.of(TargetType.POSTGRES)).isInstanceOf(PostgresTargetAdapter.class);
        assertThat(TargetAdapters.of(TargetType.MSSQL)).isInstanceOf(MssqlTargetAdapter.class);
        assertThat(TargetAdapters.of(TargetType.MSSQL).endpoint()).isSameAs(MssqlEndpoint.INSTANCE);
        assertThat(TargetAdapters.of(TargetType.MSSQL).endpoint().jdbcUrl("db.example", "1433", "orders"))
                .isEqualTo("jdbc:sqlserver://db.example:1433;databaseName=orders");
    }

    @Test
    void aTypeWithoutARegisteredAdapterIsRefusedByName() {
        TargetAdapters onlyPostgres = new TargetAdapters(List.of(new PostgresTargetAdapter()));
        assertThatThrownBy(() -> onlyPostgres.adapterFor(TargetType.MSSQL))
                .isInstanceOf(UnsupportedTargetException.class).hasMessageContaining("target type mssql has no adapter");
    }
}
