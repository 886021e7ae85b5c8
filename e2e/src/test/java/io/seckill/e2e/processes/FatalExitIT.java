package io.seckill.e2e.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.processdriver.SeckillProcess;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.ServiceMain;
import io.seckill.schemas.kafka.Topic;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/**
 * A service that cannot continue does not linger: it exits non-zero with the reason in its log, for its
 * supervisor to restart. Input topics gone are waited for first (a restarting broker reports them missing
 * until it has loaded them; a minute by default, ten seconds here), then they are a reason to stop.
 */
class FatalExitIT {

    @Test
    void aStreamProcessorWhoseInputTopicIsDeletedExitsWithStatus70() throws Exception {
        try (ProcessCluster cluster =
                ProcessCluster.start("fatal", Map.of("SECKILL_MISSING_TOPICS_GRACE_MS", "10000"))) {
            SeckillProcess streams = cluster.launch("stream-processor", "stream-processor");
            ProcessCluster.awaitReady(streams);

            try (Admin admin = Admin.create(KafkaClients.admin(cluster.infra.kafka()))) {
                admin.deleteTopics(List.of(Topic.ORDER_REQUESTS.topicName())).all().get();
            }

            await().atMost(Duration.ofMinutes(3)).until(() -> !streams.alive());
            assertThat(streams.exitCode()).contains(ServiceMain.EXIT_CANNOT_CONTINUE);
            assertThat(streams.output()).contains("stream-processor cannot continue; exiting with status 70");
        }
    }
}
