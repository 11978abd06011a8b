import { SegmentOperator } from '../enums.js';
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

function readThreshold(src: Fields): RolloutThresholdInput | undefined {
  const threshold = readMessage(src, 'threshold');
  if (threshold === undefined) return undefined;
  return {
    percentage: readNumber(threshold, 'percentage', 'threshold.percentage'),
    value: readBoolean(threshold, 'value', 'threshold.value'),
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
