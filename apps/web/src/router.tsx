import { WEB_PATHS } from '@tlprt/contract';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { setNavigator } from './api/navigation';
import { LoaderLogo } from './components/LoaderLogo';
import { DashboardLayout } from './features/layout/DashboardLayout';
import AddDomainsRoute from './routes/addDomains';
import BillingRoute from './routes/billing';
import ChangeEmailRoute from './routes/changeEmail';
import CreateAccountRoute from './routes/createAccount';
import CreatePasswordRoute from './routes/createPassword';
import DeleteUserAccountRoute from './routes/deleteUserAccount';
import EmailCancelHandlerRoute from './routes/emailCancelHandler';
import EmailEventHandlerRoute from './routes/emailEventHandler';
import EmailInviteHandlerRoute from './routes/emailInviteHandler';
import ForgotPasswordRoute from './routes/forgotPassword';
import { hashLoader } from './routes/hashLoader';
import IntegrationRoute from './routes/integration';
import LoginRoute from './routes/login';
import NotFoundRoute from './routes/notFound';
import OriginsRoute from './routes/origins';
import PasswordRecoveryRoute from './routes/passwordRecovery';
import PendingRegistrationRoute from './routes/pendingRegistration';
import RegisterRoute from './routes/register';
import ResPasswordRoute from './routes/resPassword';
import RouteErrorScreen from './routes/routeError';
import SettingsRoute from './routes/settings';
import StatisticsRoute from './routes/statistics';
import TeamRoute from './routes/team';

/** Every screen of spec §2, history mode. */
export const routes: RouteObject[] = [
  {
    element: <Outlet />,
    errorElement: <RouteErrorScreen />,
    HydrateFallback: () => <LoaderLogo />,
    children: [
      // public
      { path: WEB_PATHS.login, element: <LoginRoute /> },
      { path: WEB_PATHS.register, element: <RegisterRoute /> },
      { path: WEB_PATHS.pendingRegistration, element: <PendingRegistrationRoute /> },
      { path: WEB_PATHS.forgotPassword, element: <ForgotPasswordRoute /> },
      { path: WEB_PATHS.passwordRecovery, element: <PasswordRecoveryRoute /> },
      { path: `${WEB_PATHS.createPassword}/:hash`, loader: hashLoader, element: <CreatePasswordRoute /> },
      { path: `${WEB_PATHS.resPassword}/:hash`, loader: hashLoader, element: <ResPasswordRoute /> },
      { path: WEB_PATHS.createAccount, element: <CreateAccountRoute /> },
      // e-mail links: public, they work signed in or out (each asks for a login when it needs one)
      { path: `${WEB_PATHS.changeEmail}/:hash`, element: <ChangeEmailRoute /> },
      { path: `${WEB_PATHS.deleteUserAccount}/:hash`, element: <DeleteUserAccountRoute /> },
      { path: `${WEB_PATHS.emailEventHandler}/:type/:hash`, element: <EmailEventHandlerRoute /> },
      { path: `${WEB_PATHS.emailCancelHandler}/:type/:teamId/:hash`, element: <EmailCancelHandlerRoute /> },
      { path: `${WEB_PATHS.emailInviteHandler}/:type/:hash`, element: <EmailInviteHandlerRoute /> },
      // authenticated (shared layout; no token → /)
      {
        element: <DashboardLayout />,
        children: [
          { path: WEB_PATHS.statistics, element: <StatisticsRoute /> },
          { path: WEB_PATHS.integration, element: <IntegrationRoute /> },
          { path: WEB_PATHS.addDomains, element: <AddDomainsRoute /> },
          { path: WEB_PATHS.origins, element: <OriginsRoute /> },
          { path: WEB_PATHS.settings, element: <SettingsRoute /> },
          { path: WEB_PATHS.team, element: <TeamRoute /> },
          { path: WEB_PATHS.billing, element: <BillingRoute /> },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  setNavigator((path) => void router.navigate(path, { replace: true }));
  return router;
}
