package io.seckill.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenedResourcesTest {

    @Test
    void closesTheLastOpenedFirstAndEveryOneEvenWhenOneFails() {
        List<String> closed = new ArrayList<>();
        OpenedResources opened = new OpenedResources();
        opened.add(() -> closed.add("database"));
        opened.add(() -> {
            closed.add("producer");
            throw new IllegalStateException("broker gone");
        });
        opened.add("server", closed::add);

        opened.close();

        assertThat(closed).containsExactly("server", "producer", "database");
    }

    @Test
    void aFailedStartKeepsWhatCouldNotBeClosedWithItsFailure() {
        OpenedResources opened = new OpenedResources();
        opened.add(() -> {
            throw new IllegalStateException("pool would not close");
        });
        RuntimeException failure = new RuntimeException("port taken");

        opened.closeAfter(failure);

        assertThat(failure.getSuppressed()).extracting(Throwable::getMessage).containsExactly("pool would not close");
    }

    @Test
    void closesEachOnlyOnce() {
        List<String> closed = new ArrayList<>();
        OpenedResources opened = new OpenedResources();
        opened.add(() -> closed.add("client"));

        opened.close();
        opened.close();

        assertThat(closed).containsExactly("client");
    }
}
