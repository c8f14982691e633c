package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.Objects;

/** When the swap may happen (issue 28): a daily window of local times in a time zone. */
public class PublicationWindowSpec {
    @JsonPropertyDescription("Start of the daily window, HH:MM (24-hour), local time in timeZone.")
    private String from;
    @JsonPropertyDescription("End of the daily window, HH:MM, exclusive; earlier than from means the window spans midnight.")
    private String to;
    @JsonPropertyDescription("IANA time zone of from and to, e.g. Europe/Berlin (default UTC).")
    private String timeZone;

    public String getFrom() {
        return from;
    }

    public void setFrom(String from) {
        this.from = from;
    }

    public String getTo() {
        return to;
    }

    public void setTo(String to) {
        this.to = to;
    }

    public String getTimeZone() {
        return timeZone;
    }

    public void setTimeZone(String timeZone) {
        this.timeZone = timeZone;
    }

    PublicationWindowSpec copy() {
        PublicationWindowSpec c = new PublicationWindowSpec();
        c.from = from;
        c.to = to;
        c.timeZone = timeZone;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PublicationWindowSpec w && Objects.equals(from, w.from) && Objects.equals(to, w.to)
                && Objects.equals(timeZone, w.timeZone);
    }

    @Override
    public int hashCode() {
        return Objects.hash(from, to, timeZone);
    }
}
