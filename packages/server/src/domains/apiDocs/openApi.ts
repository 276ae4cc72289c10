import { z } from 'zod';

/** One documented route: its method, Fastify path, and the zod schemas it parses. */
export interface RouteDoc {
  method: 'get' | 'post' | 'delete';
  /** The Fastify path (`/api/v2/x/:id`); `:name` becomes `{name}` in the document. */
  path: string;
  summary: string;
  body?: z.ZodType;
  query?: z.ZodObject;
  /** 2xx status of success; 200 unless given. */
  status?: number;
}

const errorResponse = {
  description: 'Error: `{ message, code, errors? }` (API.md "Conventions")',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['message', 'code'],
        properties: {
          message: { type: 'string' },
          code: { type: 'string' },
          errors: {
            type: 'object',
            additionalProperties: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
  },
};

function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = path.replace(/:([A-Za-z_]\w*)/g, (_match, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: converted, params };
}

// Request schemas are documented as clients write them (before defaults and coercion).
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

function operationOf(route: RouteDoc, params: readonly string[]) {
  const parameters: Record<string, unknown>[] = params.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (route.query) {
    const properties = (jsonSchemaOf(route.query).properties ?? {}) as Record<string, unknown>;
    for (const [name, schema] of Object.entries(properties)) {
      parameters.push({ name, in: 'query', required: false, schema });
    }
  }
  return {
    summary: route.summary,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchemaOf(route.body) } },
          },
        }
      : {}),
    responses: {
      [String(route.status ?? 200)]: { description: 'Success' },
      default: errorResponse,
    },
  };
}

/** The OpenAPI 3.1 document of `routes`. */
export function buildOpenApiDocument(routes: readonly RouteDoc[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const { path, params } = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = operationOf(route, params);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Lattice Exchange API', version: '1' },
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'lattice_sid' },
        csrf: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token' },
      },
    },
    security: [{ session: [], csrf: [] }],
    paths,
  };
}
