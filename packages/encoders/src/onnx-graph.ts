import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** Element types the graph helpers can write (the ones the encoders need). */
export type OnnxElementType = 'float' | 'int64';

/** One named constant tensor (an initializer). */
export interface OnnxInitializer {
  name: string;
  type: OnnxElementType;
  dims: readonly number[];
  /** Row-major values; length must equal the product of `dims`. */
  data: Float32Array | BigInt64Array;
}

/** An attribute value, tagged with its ONNX type. */
export type OnnxAttribute = { int: number } | { ints: readonly number[] } | { float: number } | { string: string };

/** One graph node: `opType(inputs) -> outputs`. */
export interface OnnxNode {
  opType: string;
  inputs: readonly string[];
  outputs: readonly string[];
  name?: string;
  attributes?: Readonly<Record<string, OnnxAttribute>>;
}

/** A graph input or output: name, element type and shape (numbers or symbolic names). */
export interface OnnxValueInfo {
  name: string;
  type: OnnxElementType;
  shape: readonly (number | string)[];
}

export interface OnnxModelDefinition {
  graphName: string;
  inputs: readonly OnnxValueInfo[];
  outputs: readonly OnnxValueInfo[];
  nodes: readonly OnnxNode[];
  initializers?: readonly OnnxInitializer[];
  /** Default opset 13 (the `axes`-as-input form of Unsqueeze/ReduceSum). */
  opset?: number;
  producerName?: string;
  docString?: string;
  /** Free-form key/value metadata stored in the model (`metadata_props`). */
  metadata?: Readonly<Record<string, string>>;
}

const ELEMENT_TYPE: Record<OnnxElementType, number> = {
  float: onnx.TensorProto.DataType.FLOAT,
  int64: onnx.TensorProto.DataType.INT64,
};

function tensorBytes(data: Float32Array | BigInt64Array): Uint8Array {
  // ONNX raw_data is little-endian; typed arrays use the host order, which is little-endian on x64/arm64.
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

function initializerProto(initializer: OnnxInitializer): InstanceType<typeof onnx.TensorProto> {
  const expected = initializer.dims.reduce((product, dim) => product * dim, 1);
  if (initializer.data.length !== expected) {
    throw new RangeError(`initializer ${initializer.name}: ${initializer.data.length} values for dims [${initializer.dims.join(', ')}]`);
  }
  const wantsFloat = initializer.type === 'float';
  if (wantsFloat !== initializer.data instanceof Float32Array) {
    throw new TypeError(`initializer ${initializer.name}: data does not match type ${initializer.type}`);
  }
  return onnx.TensorProto.create({
    name: initializer.name,
    dataType: ELEMENT_TYPE[initializer.type],
    dims: [...initializer.dims],
    rawData: tensorBytes(initializer.data),
  });
}

function attributeProto(name: string, value: OnnxAttribute): InstanceType<typeof onnx.AttributeProto> {
  const AttributeType = onnx.AttributeProto.AttributeType;
  if ('int' in value) return onnx.AttributeProto.create({ name, type: AttributeType.INT, i: value.int });
  if ('ints' in value) return onnx.AttributeProto.create({ name, type: AttributeType.INTS, ints: [...value.ints] });
  if ('float' in value) return onnx.AttributeProto.create({ name, type: AttributeType.FLOAT, f: value.float });
  return onnx.AttributeProto.create({ name, type: AttributeType.STRING, s: new TextEncoder().encode(value.string) });
}

function valueInfoProto(info: OnnxValueInfo): InstanceType<typeof onnx.ValueInfoProto> {
  return onnx.ValueInfoProto.create({
    name: info.name,
    type: {
      tensorType: {
        elemType: ELEMENT_TYPE[info.type],
        shape: { dim: info.shape.map((dim) => (typeof dim === 'number' ? { dimValue: dim } : { dimParam: dim })) },
      },
    },
  });
}

/** Serialise a small ONNX model (ModelProto, IR version 8) to bytes with `onnx-proto`. */
export function encodeOnnxModel(definition: OnnxModelDefinition): Uint8Array {
  const graph = onnx.GraphProto.create({
    name: definition.graphName,
    input: definition.inputs.map(valueInfoProto),
    output: definition.outputs.map(valueInfoProto),
    initializer: (definition.initializers ?? []).map(initializerProto),
    node: definition.nodes.map((node, index) =>
      onnx.NodeProto.create({
        name: node.name ?? `${node.opType.toLowerCase()}_${index}`,
        opType: node.opType,
        input: [...node.inputs],
        output: [...node.outputs],
        attribute: Object.entries(node.attributes ?? {}).map(([name, value]) => attributeProto(name, value)),
      }),
    ),
  });
  const model = onnx.ModelProto.create({
    irVersion: onnx.Version.IR_VERSION,
    opsetImport: [{ domain: '', version: definition.opset ?? 13 }],
    producerName: definition.producerName ?? '@mosaic/encoders',
    docString: definition.docString ?? '',
    graph,
    metadataProps: Object.entries(definition.metadata ?? {}).map(([key, value]) => ({ key, value })),
  });
  return onnx.ModelProto.encode(model).finish();
}
