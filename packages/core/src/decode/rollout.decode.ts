import { SegmentOperator } from '../enums.js';
import { invalidField } from '../errors.js';
import type { ListInFlag } from '../queries.js';
import type {
  CreateRollout,
  OrderItems,
  RolloutSegmentInput,
  RolloutThresholdInput,
  UpdateRollout,
} from '../requests.js';
import {
  type Fields,
  type PathParams,
  readBoolean,
  readEnum,
  readInteger,
  readMessage,
  readNumber,
  readString,
  readStringArray,
  withPath,
} from './fields.js';
import { readPageQuery } from './page.decode.js';
import { readRamp, readWindow } from './timing.decode.js';

function readSegment(src: Fields): RolloutSegmentInput | undefined {
  const seg = readMessage(src, 'segment');
  if (seg === undefined) return undefined;
  return {
    segmentKey: readString(seg, 'segmentKey', 'segment.segmentKey'),
    segmentKeys: readStringArray(seg, 'segmentKeys', 'segment.segmentKeys'),
    segmentOperator:
      readEnum(seg, 'segmentOperator', SegmentOperator, 'segment.segmentOperator') ?? 'OR_SEGMENT_OPERATOR',
    value: readBoolean(seg, 'value', 'segment.value'),
  };
}

/** The threshold; its ramp may also be sent beside it as the rollout's `ramp`. */
function readThreshold(src: Fields): RolloutThresholdInput | undefined {
  const threshold = readMessage(src, 'threshold');
  const outer = readRamp(src, 'ramp', 'ramp');
  if (threshold === undefined) {
    if (outer !== undefined) throw invalidField('ramp', 'a ramp belongs to a threshold rollout');
    return undefined;
  }
  const inner = readRamp(threshold, 'ramp', 'threshold.ramp');
  if (inner !== undefined && outer !== undefined) throw invalidField('ramp', 'send the ramp once, as threshold.ramp or as ramp');
  const ramp = inner ?? outer;
  return {
    percentage: readNumber(threshold, 'percentage', 'threshold.percentage'),
    value: readBoolean(threshold, 'value', 'threshold.value'),
    ...(ramp === undefined ? {} : { ramp }),
  };
}

/** POST /namespaces/{ns}/flags/{flagKey}/rollouts body: `segment` or `threshold`. */
export function decodeCreateRollout(body: Fields, path?: PathParams): CreateRollout {
  const src = withPath(body, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    flagKey: readString(src, 'flagKey'),
    rank: readInteger(src, 'rank'),
    description: readString(src, 'description'),
    segment: readSegment(src),
    threshold: readThreshold(src),
    ...readWindow(src),
  };
}

/** PUT /namespaces/{ns}/flags/{flagKey}/rollouts/{id} body; the rank cannot be changed here. */
export function decodeUpdateRollout(body: Fields, path?: PathParams): UpdateRollout {
  const src = withPath(body, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    flagKey: readString(src, 'flagKey'),
    id: readString(src, 'id'),
    description: readString(src, 'description'),
    segment: readSegment(src),
    threshold: readThreshold(src),
    ...readWindow(src),
  };
}

/** PUT /namespaces/{ns}/flags/{flagKey}/rollouts/order body. */
export function decodeOrderRollouts(body: Fields, path?: PathParams): OrderItems {
  const src = withPath(body, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    flagKey: readString(src, 'flagKey'),
    ids: readStringArray(src, 'rolloutIds'),
  };
}

/** GET /namespaces/{ns}/flags/{flagKey}/rollouts query (no `offset`). */
export function decodeListRollouts(query: Fields, path?: PathParams): ListInFlag {
  const src = withPath(query, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    flagKey: readString(src, 'flagKey'),
    page: readPageQuery(src, false),
  };
}
