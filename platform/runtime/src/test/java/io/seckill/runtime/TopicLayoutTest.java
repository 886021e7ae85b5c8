package io.seckill.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.config.Env;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicLayoutTest {

    @Test
    void threeBrokersOrMoreGetThreeReplicasTwoInSyncAndASingleBrokerKeepsOne() {
        TopicLayout layout = TopicLayout.from(new Env(Map.of()));

        assertThat(layout.partitions()).isEqualTo(12);
        assertThat(layout.replicationOn(1)).isEqualTo(new TopicLayout.Replication(1, 1));
        assertThat(layout.replicationOn(2)).isEqualTo(new TopicLayout.Replication(2, 1));
        assertThat(layout.replicationOn(3)).isEqualTo(new TopicLayout.Replication(3, 2));
        assertThat(layout.replicationOn(5)).isEqualTo(new TopicLayout.Replication(3, 2));
    }

    @Test
    void aFactorAskedForIsKeptOrRefusedWhenTheClusterIsTooSmall() {
        TopicLayout layout = TopicLayout.from(
                new Env(Map.of(TopicLayout.REPLICATION_FACTOR, "3", TopicLayout.MIN_INSYNC_REPLICAS, "3")));

        assertThat(layout.replicationOn(4)).isEqualTo(new TopicLayout.Replication(3, 3));
        assertThatThrownBy(() -> layout.replicationOn(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(TopicLayout.REPLICATION_FACTOR + "=3").hasMessageContaining("has 1");
    }

    @Test
    void aMinimumInSyncNoWriteCouldMeetIsRefused() {
        assertThatThrownBy(() -> TopicLayout.from(
                        new Env(Map.of(TopicLayout.REPLICATION_FACTOR, "2", TopicLayout.MIN_INSYNC_REPLICAS, "3"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(TopicLayout.MIN_INSYNC_REPLICAS);
        TopicLayout automatic = TopicLayout.from(new Env(Map.of(TopicLayout.MIN_INSYNC_REPLICAS, "2")));
        assertThatThrownBy(() -> automatic.replicationOn(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("exceeds the replication factor 1");
        assertThatThrownBy(() -> TopicLayout.from(new Env(Map.of(TopicLayout.PARTITIONS, "0"))))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
