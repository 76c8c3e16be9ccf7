import { select } from 'd3-selection';
import { type D3ZoomEvent, zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3-zoom';
import { useCallback, useEffect, useRef, useState } from 'react';

import { GRAPH_ZOOM } from '@/config/constants';
import type { Box } from '@/features/web3/utils/graph-layout';

/** One press of Zoom in (or out) scales by this much. */
export const ZOOM_STEP = 1.5;

export type GraphZoom = {
  /** Put on the <g> that holds the drawing (`transform.toString()`). */
  transform: ZoomTransform;
  zoomIn: () => void;
  zoomOut: () => void;
  reset: () => void;
  canZoomIn: boolean;
  canZoomOut: boolean;
};

/**
 * Pan and zoom with d3-zoom over the SVG of `svgRef`, whose viewBox is `box`, the scale held
 * between 0.3 and 3 (spec 001 §9) by the behaviour's `scaleExtent`: wheel, drags, pinches and
 * the buttons all go through it. The buttons change the scale at once (no transition), so what
 * they did can be read at once.
 */
export function useGraphZoom(svgRef: React.RefObject<SVGSVGElement | null>, box: Box): GraphZoom {
  const behavior = useRef<ZoomBehavior<SVGSVGElement, unknown> | null>(null);
  const [transform, setTransform] = useState<ZoomTransform>(zoomIdentity);

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const z = zoom<SVGSVGElement, unknown>()
      .scaleExtent([GRAPH_ZOOM.min, GRAPH_ZOOM.max])
      // The viewBox: buttons zoom about its centre (the element's size is not needed).
      .extent([
        [box.x, box.y],
        [box.x + box.width, box.y + box.height],
      ])
      .on('zoom', (event: D3ZoomEvent<SVGSVGElement, unknown>) => setTransform(event.transform));
    // Keeps the transform the element already has (a new layout of the same graph does not reset it).
    select(svg).call(z);
    behavior.current = z;
    return () => {
      select(svg).on('.zoom', null);
      behavior.current = null;
    };
  }, [svgRef, box.x, box.y, box.width, box.height]);

  const apply = useCallback(
    (change: (z: ZoomBehavior<SVGSVGElement, unknown>, svg: SVGSVGElement) => void) => {
      if (behavior.current && svgRef.current) change(behavior.current, svgRef.current);
    },
    [svgRef],
  );

  return {
    transform,
    zoomIn: () => apply((z, svg) => z.scaleBy(select(svg), ZOOM_STEP)),
    zoomOut: () => apply((z, svg) => z.scaleBy(select(svg), 1 / ZOOM_STEP)),
    reset: () => apply((z, svg) => z.transform(select(svg), zoomIdentity)),
    canZoomIn: transform.k < GRAPH_ZOOM.max,
    canZoomOut: transform.k > GRAPH_ZOOM.min,
  };
}
