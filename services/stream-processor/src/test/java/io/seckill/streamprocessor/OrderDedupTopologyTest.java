package io.seckill.streamprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.kafka.DeadLetterHeaders;
import io.seckill.schemas.kafka.RelayHeaders;
import io.seckill.schemas.kafka.Topic;
import io.seckill.schemas.kafka.WarmUpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OrderDedupTopologyTest {

    private static final Duration TTL = Duration.ofHours(1);
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> requests;
    private TestOutputTopic<byte[], byte[]> unique;
    private TestOutputTopic<byte[], byte[]> deadLetters;

    @BeforeEach
    void start() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "dedup-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(OrderDedupTopology.build(TTL, meters), props);
        requests = driver.createInputTopic(
                Topic.ORDER_REQUESTS.topicName(), new ByteArraySerializer(), new ByteArraySerializer());
        unique = driver.createOutputTopic(
                Topic.ORDERS_UNIQUE.topicName(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        deadLetters = driver.createOutputTopic(
                Topic.DEAD_LETTERS.topicName(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    @Test
    void aRelayResendOfAnOrderSeenBeforeGoesThroughForTheSinkToDecide() {
        OrderRequested order = order(8);
        requests.pipeInput(key(8), EventJson.encode(order), T0);
        RecordHeaders resent = new RecordHeaders();
        RelayHeaders.markResent(resent, 0);
        requests.pipeInput(new TestRecord<>(key(8), EventJson.encode(order), resent, T0.plusSeconds(10)));
        requests.pipeInput(key(8), EventJson.encode(order), T0.plusSeconds(20));

        assertThat(unique.readRecordsToList()).as("the first copy and the relay's, not the plain duplicate").hasSize(2);
        assertThat(meters.counter("seckill.gate.resends.passed").count()).isEqualTo(1);
        assertThat(meters.counter("seckill.gate.duplicates.dropped").count()).isEqualTo(1);
    }

    @Test
    void aWarmUpOrderPassesWithItsMarkAndTheGateRemembersNothingOfIt() {
        OrderRequested order = order(9);
        RecordHeaders warmUp = new RecordHeaders();
        WarmUpHeaders.mark(warmUp);
        requests.pipeInput(new TestRecord<>(key(9), EventJson.encode(order), warmUp, T0));
        requests.pipeInput(new TestRecord<>(key(9), EventJson.encode(order), warmUp, T0.plusSeconds(1)));
        requests.pipeInput(key(9), EventJson.encode(order), T0.plusSeconds(2));

        List<TestRecord<byte[], byte[]>> out = unique.readRecordsToList();
        assertThat(out).as("both warm-up copies, then the plain one: no copy was remembered").hasSize(3);
        assertThat(out.subList(0, 2)).allSatisfy(record -> assertThat(WarmUpHeaders.marked(record.headers())).isTrue());
        assertThat(WarmUpHeaders.marked(out.get(2).headers())).isFalse();
        assertThat(meters.counter("seckill.gate.duplicates.dropped").count()).isZero();
    }

    @Test
    void anOrderDeliveredThreeTimesPassesOnce() {
        OrderRequested order = order(7);
        requests.pipeInput(key(7), EventJson.encode(order), T0);
        requests.pipeInput(key(7), EventJson.encode(order), T0.plusSeconds(30));
        requests.pipeInput(key(7), EventJson.encode(order), T0.minusSeconds(5));

        List<TestRecord<byte[], byte[]>> out = unique.readRecordsToList();
        assertThat(out).hasSize(1);
        assertThat(meters.counter("seckill.gate.duplicates.dropped").count()).isEqualTo(2);
        assertThat(EventJson.decode(out.get(0).value(), OrderRequested.class)).isEqualTo(order);
        assertThat(new String(out.get(0).key(), StandardCharsets.UTF_8)).isEqualTo("7");
        assertThat(deadLetters.isEmpty()).isTrue();
    }

    @Test
    void distinctOrdersAllPass() {
        for (int i = 0; i < 5; i++) {
            requests.pipeInput(key(7), EventJson.encode(order(7)), T0.plusMillis(i));
        }
        assertThat(unique.readRecordsToList()).hasSize(5);
    }

    @Test
    void anOrderSeenLongerAgoThanTheTtlPassesAgain() {
        OrderRequested order = order(8);
        requests.pipeInput(key(8), EventJson.encode(order), T0);
        requests.pipeInput(key(8), EventJson.encode(order), T0.plus(TTL).minusSeconds(1));
        assertThat(unique.readRecordsToList()).hasSize(1);

        requests.pipeInput(key(8), EventJson.encode(order), T0.plus(TTL).plus(TTL).plusSeconds(1));
        assertThat(unique.readRecordsToList()).hasSize(1);
    }

    @Test
    void undecodableBytesGoToTheDeadLetterTopicWithTheReasonAndTheNextRecordStillPasses() {
        byte[] garbage = "{not json".getBytes(StandardCharsets.UTF_8);
        requests.pipeInput(key(9), garbage, T0);
        OrderRequested next = order(9);
        requests.pipeInput(key(9), EventJson.encode(next), T0.plusMillis(1));

        TestRecord<byte[], byte[]> dead = deadLetters.readRecord();
        assertThat(dead.value()).isEqualTo(garbage);
        assertThat(dead.key()).isEqualTo(key(9));
        assertThat(DeadLetterHeaders.read(dead.headers(), DeadLetterHeaders.REASON)).contains("undecodable");
        assertThat(DeadLetterHeaders.read(dead.headers(), DeadLetterHeaders.STAGE)).isEqualTo(OrderGateProcessor.STAGE);
        assertThat(DeadLetterHeaders.read(dead.headers(), DeadLetterHeaders.SOURCE_TOPIC))
                .isEqualTo(Topic.ORDER_REQUESTS.topicName());
        assertThat(DeadLetterHeaders.read(dead.headers(), DeadLetterHeaders.SOURCE_OFFSET)).isEqualTo("0");
        assertThat(EventJson.decode(unique.readRecord().value(), OrderRequested.class)).isEqualTo(next);
    }

    @Test
    void validJsonThatBreaksTheContractIsDeadLetteredWithTheField() {
        String zeroQuantity = EventJson.encodeToString(order(10)).replace("\"quantity\":1", "\"quantity\":0");
        requests.pipeInput(key(10), zeroQuantity.getBytes(StandardCharsets.UTF_8), T0);
        requests.pipeInput(key(10), new byte[0], T0);

        List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
        assertThat(dead).hasSize(2);
        assertThat(DeadLetterHeaders.read(dead.get(0).headers(), DeadLetterHeaders.REASON)).contains("quantity");
        assertThat(DeadLetterHeaders.read(dead.get(1).headers(), DeadLetterHeaders.REASON)).contains("empty");
        assertThat(unique.isEmpty()).isTrue();
    }

    private static OrderRequested order(long skuId) {
        return OrderRequested.of(UUID.randomUUID().toString(), skuId, "user-" + UUID.randomUUID(), 1, T0);
    }

    private static byte[] key(long skuId) {
        return Long.toString(skuId).getBytes(StandardCharsets.UTF_8);
    }
}
