import { describe, expect, it } from 'vitest';
import {
  type RequestChainValues,
  requestChainValues,
  shortName,
  ToolChains,
  toolChainProfile,
} from './tool-chains.js';
import type { ToolReference } from './tool-reference.js';
import { requestValueKinds } from './value-kinds.js';

/** A tool whose listed parameters are strings, `required` of them required. */
function tool(
  toolName: string,
  summary: string,
  required: string[] = [],
  descriptions: Record<string, string> = {},
  optional: string[] = [],
): ToolReference {
  const properties = Object.fromEntries(
    [...required, ...optional].map((name) => [
      name,
      { type: 'string', ...(descriptions[name] ? { description: descriptions[name] } : {}) },
    ]),
  );
  return { toolName, summary, inputSchema: { type: 'object', properties, required } };
}

const nearby = tool('find_nearby_places', 'Points of interest near a location', [
  'latitude',
  'longitude',
]);
const geocoder = tool(
  'geocode_address',
  'Convert an address or place name to geographic coordinates.',
  ['address'],
);
const tickets = tool('get-tickets', 'Search train tickets', ['date', 'fromStation'], {
  date: 'Travel date, yyyy-MM-dd; for a relative date call `get-current-date` first',
  fromStation: 'The `station_code` of the departure, from `get-station-code-by-names`',
});

describe('toolChainProfile', () => {
  it('sees a tool that requires coordinates', () => {
    expect(toolChainProfile(nearby)).toMatchObject({
      requiresCoordinates: true,
      givesCoordinates: false,
    });
    const route = tool('route', 'Directions', ['from_lat', 'from_lng', 'to_lat', 'to_lng']);
    expect(toolChainProfile(route).requiresCoordinates).toBe(true);
    // An optional latitude is not needed from another tool.
    const optional = tool('weather', 'Weather', ['city'], {}, ['latitude', 'longitude']);
    expect(toolChainProfile(optional).requiresCoordinates).toBe(false);
  });

  it('sees a geocoder by its name or by a description that turns a place into coordinates', () => {
    expect(toolChainProfile(geocoder).givesCoordinates).toBe(true);
    expect(toolChainProfile(tool('geocode', 'Look up a place', ['q'])).givesCoordinates).toBe(true);
    expect(
      toolChainProfile(tool('get_coordinates_from_city', 'City lookup', ['city'])).givesCoordinates,
    ).toBe(true);
    const described = tool('lookup', 'Fetches the latitude and longitude of a city.', ['city']);
    expect(toolChainProfile(described).givesCoordinates).toBe(true);
  });

  it('sees no geocoder in a reverse geocoder, a tool of other coordinates, or a coordinate user', () => {
    const reverse = tool('reverse_geocode', 'Convert coordinates to an address', [
      'latitude',
      'longitude',
    ]);
    expect(toolChainProfile(reverse).givesCoordinates).toBe(false);
    const neuron = tool('get_neuron_coordinates', 'Retrieve the coordinates of a neuron.', ['id']);
    expect(toolChainProfile(neuron).givesCoordinates).toBe(false);
    const distance = tool(
      'distance_between',
      'Returns the distance between two places given their latitude and longitude.',
      ['lat1', 'lon1', 'lat2', 'lon2'],
    );
    expect(toolChainProfile(distance).givesCoordinates).toBe(false);
  });

  it('reads the tools a required parameter names as its source, with the kinds it takes', () => {
    const profile = toolChainProfile(tickets);
    expect(profile.sources).toEqual([
      { toolNames: ['yyyy-MM-dd', 'get-current-date'], kinds: 1 },
      { toolNames: ['station_code', 'get-station-code-by-names'], kinds: 0 },
    ]);
    // Optional parameters and the tool's own name are no source.
    const own = tool('search_cards', 'Cards', ['q'], { q: 'Words for `search_cards`' }, ['id']);
    expect(toolChainProfile(own).sources).toEqual([]);
  });
});

describe('shortName', () => {
  it.each([
    ['weather::get_forecast', 'get_forecast'],
    ['mcp__weather__get_forecast', 'get_forecast'],
    ['weather/get_forecast', 'get_forecast'],
    ['get_forecast', 'get_forecast'],
    ['trailing::', 'trailing::'],
  ])('%s → %s', (name, short) => {
    expect(shortName(name)).toBe(short);
  });
});

describe('requestChainValues', () => {
  const values = (text: string) => requestChainValues(text, requestValueKinds(text));

  it('sees coordinates given as numbers or by name, and not in a place name', () => {
    expect(values('restaurants near 40.7128, -74.0060').coordinates).toBe(true);
    expect(values('parking around lat 48.85 lon 2.35').coordinates).toBe(true);
    expect(values('hotels near 39.9° N, 116.4° E').coordinates).toBe(true);
    expect(values("what's interesting near the Forbidden City").coordinates).toBe(false);
  });

  it('tells a date of the calendar from a date relative to today', () => {
    expect(values('trains to Shanghai on May 3rd').absoluteDate).toBe(true);
    expect(values('trains to Shanghai on 2025-05-03').absoluteDate).toBe(true);
    expect(values('trains to Shanghai next Wednesday').absoluteDate).toBe(false);
    expect(values('trains to Shanghai tomorrow').absoluteDate).toBe(false);
  });

  it('sees identifier-like values: long numbers, letters mixed with digits', () => {
    expect(values('comments on story 44490510').identifier).toBe(true);
    expect(values('summarise trial NCT04280705').identifier).toBe(true);
    expect(values('trains from Beijing to Shanghai').identifier).toBe(false);
  });
});

describe('ToolChains', () => {
  /** Tools in slots 0, 1, 2 … of a new session. */
  function chainsOf(tools: readonly ToolReference[]): ToolChains {
    const chains = new ToolChains();
    tools.forEach((reference, slot) => {
      chains.add(slot, reference);
    });
    return chains;
  }
  const lift = (
    chains: ToolChains,
    scores: number[],
    request: string,
    accepted?: Uint8Array,
  ): number[] => {
    const array = Float64Array.from(scores);
    const values = (): RequestChainValues =>
      requestChainValues(request, requestValueKinds(request));
    chains.liftProducers(array, values, (slot) => slot, accepted);
    return [...array];
  };
  const other = (name: string) => tool(name, 'Something else');
  const secondGeocoder = tool('geocode_city', 'Geocode a city', ['city']);

  it('lifts the best geocoder to 0.8 of a best tool that requires coordinates', () => {
    const chains = chainsOf([nearby, other('a'), other('b'), geocoder, secondGeocoder]);
    expect(lift(chains, [10, 9, 8, 1, 0.5], 'sights near the Forbidden City')).toEqual([
      10, 9, 8, 8, 0.5,
    ]);
    // The request gives coordinates: nothing to lift.
    expect(lift(chains, [10, 9, 8, 1, 0.5], 'sights near 39.91, 116.39')).toEqual([
      10, 9, 8, 1, 0.5,
    ]);
    // A geocoder scoring more on its own keeps its score.
    expect(lift(chains, [10, 9, 8, 9.5, 0.5], 'sights near the Forbidden City')).toEqual([
      10, 9, 8, 9.5, 0.5,
    ]);
  });

  it('reads only the three best tools, and only those the search may return', () => {
    const chains = chainsOf([nearby, other('a'), other('b'), other('c'), geocoder]);
    expect(lift(chains, [7, 10, 9, 8, 1], 'sights near the Forbidden City')).toEqual([
      7, 10, 9, 8, 1,
    ]);
    expect(lift(chains, [8, 10, 9, 7, 1], 'sights near the Forbidden City')).toEqual([
      8, 10, 9, 7, 6.4,
    ]);
    // A tie for third place goes to the tool indexed first (here the lower slot).
    expect(lift(chains, [8, 10, 9, 8, 1], 'sights near the Forbidden City')).toEqual([
      8, 10, 9, 8, 6.4,
    ]);
    const late = chainsOf([other('c'), other('a'), other('b'), nearby, geocoder]);
    expect(lift(late, [8, 10, 9, 8, 1], 'sights near the Forbidden City')).toEqual([
      8, 10, 9, 8, 1,
    ]);
    const notGeocoder = Uint8Array.from([1, 1, 1, 1, 0]);
    expect(lift(chains, [8, 10, 9, 7, 1], 'near the Forbidden City', notGeocoder)).toEqual([
      8, 10, 9, 7, 1,
    ]);
    const notConsumer = Uint8Array.from([0, 1, 1, 1, 1]);
    expect(lift(chains, [8, 10, 9, 7, 1], 'near the Forbidden City', notConsumer)).toEqual([
      8, 10, 9, 7, 1,
    ]);
  });

  it('lifts the tools a required parameter names, unless the request gives its value', () => {
    const chains = chainsOf([
      { ...tickets, toolName: 'rail::get-tickets' },
      tool('rail::get-current-date', 'Today'),
      tool('rail::get-station-code-by-names', 'Station codes'),
      tool('bus::get-station-code-by-names', 'Bus station codes'),
      other('x'),
    ]);
    // A relative date needs the current date; a station name is no station code.
    expect(lift(chains, [10, 1, 1, 1, 9], 'tickets from Beijing to Shanghai tomorrow')).toEqual([
      10, 8, 8, 1, 9,
    ]);
    // A date of the calendar and an identifier-like value need neither.
    expect(lift(chains, [10, 1, 1, 1, 9], 'tickets from VNP to AOH on May 3rd 2025')).toEqual([
      10, 1, 1, 1, 9,
    ]);
  });

  it('forgets removed and replaced tools', () => {
    const chains = chainsOf([nearby, other('a'), geocoder]);
    chains.remove(2);
    expect(lift(chains, [10, 9, 1], 'near the Forbidden City')).toEqual([10, 9, 1]);
    chains.add(2, geocoder);
    chains.add(0, other('no longer a consumer'));
    expect(lift(chains, [10, 9, 1], 'near the Forbidden City')).toEqual([10, 9, 1]);
    chains.add(1, nearby);
    expect(lift(chains, [10, 9, 1], 'near the Forbidden City')).toEqual([10, 9, 7.2]);
  });
});
