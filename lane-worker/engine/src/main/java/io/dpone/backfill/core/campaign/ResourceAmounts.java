package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.dpone.backfill.core.campaign.rule.Pattern;

import java.util.Objects;

/** CPU and memory as Kubernetes quantity strings, kept as text so core needs no Kubernetes types. */
public class ResourceAmounts {
    /** Kubernetes quantity syntax (a decimal number with an optional SI or binary suffix). */
    public static final String QUANTITY_PATTERN = "^[0-9]+(\\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$";

    @Pattern(QUANTITY_PATTERN)
    @JsonPropertyDescription("CPU quantity, e.g. 500m or 2.")
    private String cpu;
    @Pattern(QUANTITY_PATTERN)
    @JsonPropertyDescription("Memory quantity, e.g. 1Gi.")
    private String memory;

    public ResourceAmounts() {
    }

    public ResourceAmounts(String cpu, String memory) {
        this.cpu = cpu;
        this.memory = memory;
    }

    public String getCpu() {
        return cpu;
    }

    public void setCpu(String cpu) {
        this.cpu = cpu;
    }

    public String getMemory() {
        return memory;
    }

    public void setMemory(String memory) {
        this.memory = memory;
    }

    ResourceAmounts copy() {
        return new ResourceAmounts(cpu, memory);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResourceAmounts r && Objects.equals(cpu, r.cpu) && Objects.equals(memory, r.memory);
    }

    @Override
    public int hashCode() {
        return Objects.hash(cpu, memory);
    }
}
