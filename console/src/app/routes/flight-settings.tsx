import { ComingSoonRoute } from '@/app/routes/coming-soon';
export const FlightSettingsRoute = ComingSoonRoute;
